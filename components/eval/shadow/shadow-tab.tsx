"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { useTRPC } from "@/lib/trpc";
import { Button } from "@/components/ui/button";
import { Card, Stat } from "@/components/ui/card";
import { Field, inputClass } from "@/components/ui/field";
import { EmptyState, ErrorState, LoadingRows, Spinner } from "@/components/ui/feedback";
import { useToast } from "@/components/ui/toast";
import { CountBars, DailyBars } from "../charts";
import { deniedReason, useCaps } from "../context";
import { pct } from "../format";
import { TraceButton } from "../trace-steps";
import { ConfigCard } from "./config-card";
import { Disagreements } from "./disagreements";
import { PublishCandidate } from "./publish-candidate";
import { useMutationToast } from "../hooks/use-mutation-toast";

/**
 * Intent shadow: a candidate intent/scene classifier computed beside live traffic (in the background, at tier
 * pipeline, never changing what users get), and how often it agrees with the live one: the configuration (which
 * candidate, from where), replay, agreement per day, the confusion matrix, per-intent counts, the disagreements by
 * pages (each opens its traces and can go to a regression pool), and publishing the candidate once satisfied.
 */
export function ShadowTab({ agentId, agentName }: { agentId: string; agentName: string }) {
  const trpc = useTRPC();
  const config = useQuery(trpc.eval.shadow.get.queryOptions({ agentId }));
  const agent = useQuery(trpc.builder.agents.get.queryOptions({ id: agentId }));
  const report = useQuery({
    ...trpc.eval.shadow.report.queryOptions({ agentId }),
    enabled: !!config.data?.config,
    refetchInterval: 10_000,
  });
  if (config.error) return <ErrorState error={config.error} onRetry={() => config.refetch()} />;
  if (config.isLoading) return <LoadingRows rows={4} label="Loading the intent shadow" />;
  const cfg = config.data?.config ?? null;
  const publishedVersion = agent.data?.publishedVersion ?? null;
  return (
    <div className="space-y-5">
      <div>
        <h2 className="text-lg font-semibold text-slate-900">Intent shadow</h2>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Try a new intent or scene classifier of {agentName} on real traffic before it goes live. For each sampled
          online chat (answers from the cache included) the candidate computes its intent in the background (only its
          intent node and what that node needs, at tier pipeline: no real HTTP calls); users always get the live answer.
        </p>
      </div>
      <ConfigCard agentId={agentId} config={cfg} publishedVersion={publishedVersion} />
      {cfg ? (
        report.error ? (
          <ErrorState error={report.error} onRetry={() => report.refetch()} />
        ) : report.data ? (
          <ReportView
            agentId={agentId}
            report={report.data}
            publish={
              <PublishCandidate
                agentId={agentId}
                agentName={agentName}
                candidateVersion={cfg.candidateVersion}
                latestVersion={agent.data?.latestVersion ?? 1}
                publishedVersion={publishedVersion}
                agreement={{ rate: report.data.agreement, compared: report.data.compared }}
              />
            }
          />
        ) : (
          <LoadingRows rows={3} label="Loading the report" />
        )
      ) : null}
    </div>
  );
}

type Report = {
  results: number;
  compared: number;
  agreed: number;
  agreement: number | null;
  failed: number;
  missingLive: number;
  perDay: Array<{ day: string; total: number; agreed: number; agreement: number | null }>;
  matrix: Array<{ live: string; candidate: string; count: number }>;
  intents: Array<{ intent: string; live: number; candidate: number }>;
  failures: Array<{ traceId: string; error: string; at: string }>;
};

function ReportView({ agentId, report, publish }: { agentId: string; report: Report; publish: ReactNode }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const { fail } = useMutationToast();
  const { caps, role } = useCaps();
  const [limit, setLimit] = useState("50");
  const replay = useMutation(
    trpc.eval.shadow.replay.mutationOptions({
      onSuccess: async (r) => {
        toast({
          tone: r.failed ? "info" : "success",
          title: `Replayed ${r.replayed} chat${r.replayed === 1 ? "" : "s"}`,
          description: r.failed ? `${r.failed} candidate run(s) failed.` : undefined,
        });
        await qc.invalidateQueries({ queryKey: trpc.eval.shadow.pathKey() });
      },
      onError: fail("Replay failed"),
    }),
  );
  const lives = [...new Set(report.matrix.map((m) => m.live))].sort();
  const candidates = [...new Set(report.matrix.map((m) => m.candidate))].sort();
  const cell = (l: string, c: string) => report.matrix.find((m) => m.live === l && m.candidate === c)?.count ?? 0;
  const max = Math.max(1, ...report.matrix.map((m) => m.count));
  return (
    <>
      <Card
        title="Agreement"
        description="The configured candidate's results; only chats where both intents were read are compared."
      >
        <dl className="grid gap-4 sm:grid-cols-4">
          <Stat
            label="Agreement"
            value={pct(report.agreement, 0)}
            hint={`${report.agreed} of ${report.compared} compared`}
          />
          <Stat label="Shadowed chats" value={String(report.results)} hint="live and replayed" />
          <Stat
            label="Candidate failures"
            value={String(report.failed)}
            hint="runs that did not finish"
            tone={report.failed ? "bad" : "default"}
          />
          <Stat label="Live intent missing" value={String(report.missingLive)} hint="check the live intent template" />
        </dl>
        <div className="mt-4 flex flex-wrap items-end gap-3">
          <Field label="Replay the last chats" dense>
            <input
              className={inputClass}
              type="number"
              min={1}
              max={200}
              value={limit}
              onChange={(e) => setLimit(e.target.value)}
            />
          </Field>
          <Button
            variant="secondary"
            disabled={!caps.manage || replay.isPending}
            title={caps.manage ? undefined : deniedReason(role, "manage")}
            onClick={() => replay.mutate({ agentId, body: { limit: Math.min(200, Math.max(1, Number(limit) || 50)) } })}
          >
            {replay.isPending ? <Spinner label="Replaying" showLabel /> : "Replay"}
          </Button>
          {publish}
        </div>
      </Card>
      {report.compared === 0 ? (
        <EmptyState title="Nothing compared yet">
          Online chats are shadowed as they arrive; Replay runs the candidate over recent chats right away.
        </EmptyState>
      ) : (
        <>
          <div className="grid gap-5 lg:grid-cols-2">
            <Card title="Agreement per day">
              <DailyBars
                data={report.perDay.map((d) => ({ day: d.day, agreement: d.agreement }))}
                series={[{ key: "agreement", name: "Agreement", tone: "human" }]}
                percent
                label={`Agreement per day: ${report.perDay.map((d) => `${d.day} ${pct(d.agreement)} of ${d.total}`).join(", ")}`}
              />
            </Card>
            <Card title="Intents">
              <CountBars
                data={report.intents.map((i) => ({ name: i.intent, value: i.live }))}
                label={`Live intents: ${report.intents.map((i) => `${i.intent} ${i.live}`).join(", ")}`}
                valueName="Live"
              />
              <p className="mt-2 text-xs text-slate-500">
                Candidate: {report.intents.map((i) => `${i.intent} ${i.candidate}`).join(" · ")}
              </p>
            </Card>
          </div>
          <Card
            title="Confusion matrix"
            description="Rows: the live intent; columns: the candidate's. The diagonal agrees."
          >
            <div className="overflow-x-auto">
              <table className="text-sm">
                <caption className="sr-only">Live intent by candidate intent</caption>
                <thead>
                  <tr>
                    <th scope="col" className="p-2 text-left text-xs font-medium text-slate-500">
                      live \ candidate
                    </th>
                    {candidates.map((c) => (
                      <th key={c} scope="col" className="p-2 text-xs font-medium text-slate-700">
                        {c}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {lives.map((l) => (
                    <tr key={l}>
                      <th scope="row" className="p-2 text-left text-xs font-medium text-slate-700">
                        {l}
                      </th>
                      {candidates.map((c) => {
                        const n = cell(l, c);
                        const same = l.toLowerCase() === c.toLowerCase();
                        return (
                          <td key={c} className="p-1">
                            <div
                              className={`min-w-14 rounded-md px-3 py-2 text-center font-medium ${n === 0 ? "text-slate-400" : same ? "text-emerald-950" : "text-red-950"}`}
                              style={{
                                backgroundColor:
                                  n === 0
                                    ? "#f8fafc"
                                    : same
                                      ? `rgba(16,185,129,${0.15 + (0.6 * n) / max})`
                                      : `rgba(239,68,68,${0.15 + (0.6 * n) / max})`,
                              }}
                            >
                              {n}
                            </div>
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Card>
          <Disagreements agentId={agentId} />
          {report.failures.length > 0 && (
            <Card title={`Candidate failures (${report.failed})`}>
              <ul className="space-y-1 text-sm">
                {report.failures.map((f) => (
                  <li key={f.traceId} className="flex flex-wrap items-baseline gap-2">
                    <TraceButton traceId={f.traceId} /> <span className="text-slate-700">{f.error}</span>
                  </li>
                ))}
              </ul>
            </Card>
          )}
        </>
      )}
    </>
  );
}
