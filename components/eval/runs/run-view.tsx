"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { useConfirm } from "@/components/ui/dialog";
import { ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Progress } from "@/components/ui/progress";
import { useToast } from "@/components/ui/toast";
import { deniedReason, useCaps, useEvalUrl, EvalLink } from "../context";
import { KindBadge, RunStatusBadge, TierBadge } from "../badges";
import { Breadcrumbs } from "../breadcrumbs";
import { ago, ms, when } from "../format";
import type { EvalRun } from "../types";
import { AnswersDialog } from "./answers-dialog";
import { ReportView } from "./report-view";
import { PeopleCard } from "./people-card";
import { useMutationToast } from "../hooks/use-mutation-toast";

const LIVE = new Set(["created", "answering"]);

/** A run: live progress while answering (polled), its lifecycle actions, pasted-answer upload, then its report. */
export function RunView({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const { caps, role } = useCaps();
  const [, go] = useEvalUrl();
  const [uploading, setUploading] = useState(false);
  const run = useQuery({
    ...trpc.eval.runs.get.queryOptions({ id: runId }),
    refetchInterval: (q) => (q.state.data && LIVE.has(q.state.data.status) ? 1000 : false),
  });
  // the report is asked for together with the run (one batched request), not after the run has arrived
  useQuery({ ...trpc.eval.runs.report.queryOptions({ id: runId }), enabled: !run.data || !LIVE.has(run.data.status) });
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.eval.pathKey() });
  // when answering ends (seen by the poll above), everything read while it answered is out of date: the report (gate,
  // pass rates, suggestion counts), the runs list, the review progress. Read again now, not at the next reload.
  const status = run.data?.status;
  const seen = useRef(status);
  useEffect(() => {
    const before = seen.current;
    seen.current = status;
    if (before && status && LIVE.has(before) && !LIVE.has(status))
      void qc.invalidateQueries({ queryKey: trpc.eval.pathKey() });
  }, [status, qc, trpc]);
  const { fail } = useMutationToast();
  const start = useMutation(
    trpc.eval.runs.start.mutationOptions({
      onSuccess: async () => (toast({ tone: "success", title: "Answering started" }), await refresh()),
      onError: fail("Not started"),
    }),
  );
  const cancel = useMutation(
    trpc.eval.runs.cancel.mutationOptions({
      onSuccess: async () => (
        toast({ tone: "success", title: "Run cancelled", description: "Answers already finished are kept." }),
        await refresh()
      ),
      onError: fail("Not cancelled"),
    }),
  );
  const close = useMutation(
    trpc.eval.runs.close.mutationOptions({
      onSuccess: async (c) => {
        toast({
          tone: "success",
          title: "Answering closed",
          description: c.unanswered.length
            ? `${c.unanswered.length} question${c.unanswered.length === 1 ? "" : "s"} without an answer now need a verdict (normally fail).`
            : "Every question had an answer.",
        });
        await refresh();
      },
      onError: fail("Answering not closed"),
    }),
  );
  const rerun = useMutation(
    trpc.eval.runs.rerun.mutationOptions({
      onSuccess: async (r) => {
        toast({
          tone: "success",
          title: `Re-run ${r.shortId} created`,
          description: `Same questions, mode and tier; agent version ${r.workflowVersion}.`,
        });
        await refresh();
        go({ tab: "runs", run: r.shortId });
      },
      onError: fail("No re-run"),
    }),
  );

  if (run.error) return <ErrorState error={run.error} onRetry={() => run.refetch()} />;
  if (!run.data) return <LoadingRows rows={5} label="Loading the run" />;
  const r: EvalRun = run.data;
  const p = r.progress;
  const manageTitle = caps.manage ? undefined : deniedReason(role, "manage");
  const answered = r.status === "awaiting_review" || r.status === "completed";

  return (
    <div className="space-y-5">
      <Breadcrumbs items={[{ label: "Runs", to: { tab: "runs" } }, { label: r.shortId }]} />
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="font-mono text-lg font-semibold">{r.shortId}</h2>
            <RunStatusBadge status={r.status} />
            <TierBadge tier={r.tier} />
            <KindBadge kind={r.setKind} />
          </div>
          <p className="mt-1 text-sm text-slate-600">
            <EvalLink
              to={{ tab: "sets", set: r.setId, v: r.setVersion }}
              className="font-medium text-slate-800 hover:underline"
            >
              {r.setName} v{r.setVersion}
            </EvalLink>{" "}
            · {r.agentName} version {r.workflowVersion} ·{" "}
            {r.mode === "pasted" ? "pasted answers" : "answered in the platform"}
            {r.environment ? ` · ${r.environment}` : ""} · created {ago(r.createdAt)} by {r.createdByLabel ?? "—"}
            {r.rerunOfId && " · a re-run of an earlier run"}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {r.status === "created" && r.mode === "in_platform" && (
            <Button
              disabled={!caps.manage || start.isPending}
              title={manageTitle}
              onClick={() => start.mutate({ id: r.id })}
            >
              Start
            </Button>
          )}
          {r.mode === "pasted" && LIVE.has(r.status) && (
            <Button disabled={!caps.manage} title={manageTitle} onClick={() => setUploading(true)}>
              Upload answers
            </Button>
          )}
          {r.mode === "pasted" && LIVE.has(r.status) && (
            <Button
              variant="secondary"
              disabled={!caps.manage || close.isPending}
              title={
                manageTitle ??
                "Stop waiting for answers: the questions without one become failed (not answered) and need a verdict"
              }
              onClick={async () => {
                if (
                  await confirm({
                    title: `Close answering of ${r.shortId}?`,
                    description: `${p.pending} of ${p.total} questions have no answer yet. They become failed ("not answered") and still need a verdict: the gate counts every question. Answers already pasted are kept.`,
                    confirmLabel: "Close answering",
                    cancelLabel: "Keep waiting",
                  })
                )
                  close.mutate({ id: r.id });
              }}
            >
              Close answering
            </Button>
          )}
          {LIVE.has(r.status) && (
            <Button
              variant="danger"
              disabled={!caps.manage || cancel.isPending}
              title={manageTitle}
              onClick={async () => {
                if (
                  await confirm({
                    title: `Cancel ${r.shortId}?`,
                    description:
                      "Questions not answered yet are cancelled; answers already finished are kept. A cancelled run cannot be restarted (re-run it instead).",
                    confirmLabel: "Cancel run",
                    cancelLabel: "Keep running",
                    destructive: true,
                  })
                )
                  cancel.mutate({ id: r.id });
              }}
            >
              Cancel run
            </Button>
          )}
          {answered && (
            <EvalLink
              to={{ tab: "annotation", run: r.shortId }}
              className="inline-flex items-center rounded-lg bg-brand-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700"
            >
              {r.status === "completed" ? "Open annotation" : "Judge answers"}
            </EvalLink>
          )}
          {r.status !== "created" && (
            <Button
              variant="secondary"
              disabled={!caps.manage || rerun.isPending}
              title={
                manageTitle ?? "A new run on the same frozen version, mode and tier, with the agent's current version"
              }
              onClick={() => rerun.mutate({ id: r.id, body: {} })}
            >
              Re-run same batch
            </Button>
          )}
          {answered && (
            <EvalLink
              to={{ tab: "runs", view: "compare", a: r.shortId }}
              className="inline-flex items-center rounded-lg border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
            >
              Compare…
            </EvalLink>
          )}
        </div>
      </div>

      {r.error && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {r.error}
        </p>
      )}

      <Card title="Progress" description={LIVE.has(r.status) ? "Updates by itself while the run answers." : undefined}>
        <div className="space-y-3">
          <Progress value={p.done} max={p.total} failed={p.failed} label={`Answered questions of run ${r.shortId}`} />
          <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4 lg:grid-cols-7">
            {(
              [
                ["Questions", p.total],
                ["Pending", p.pending],
                ["Answering", p.answering],
                ["Answered", p.answered],
                ["Failed", p.failed],
                ["Cancelled", p.cancelled],
                ["With a verdict", p.judged],
              ] as const
            ).map(([k, v]) => (
              <div key={k}>
                <dt className="text-xs text-slate-500">{k}</dt>
                <dd className="font-semibold tabular-nums">{v}</dd>
              </div>
            ))}
          </dl>
          <p className="text-xs text-slate-500">
            {r.startedAt ? `Started ${when(r.startedAt)}` : "Not started"}
            {r.answeredAt
              ? ` · answering took ${ms(new Date(r.answeredAt).getTime() - new Date(r.startedAt ?? r.createdAt).getTime())}`
              : ""}
            {r.completedAt && r.status === "completed" ? ` · every question judged ${when(r.completedAt)}` : ""}
          </p>
        </div>
      </Card>

      {answered && <PeopleCard runId={r.id} />}

      {r.status === "created" || (r.status === "answering" && p.done === 0) ? null : (
        <ReportView runId={runId} live={LIVE.has(r.status)} />
      )}
      <AnswersDialog open={uploading} onClose={() => setUploading(false)} runId={r.id} />
    </div>
  );
}
