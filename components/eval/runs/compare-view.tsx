"use client";

import { useQuery } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card, Stat } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { EmptyState, ErrorState, LoadingRows, Spinner } from "@/components/ui/feedback";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { useEvalUrl } from "../context";
import { Breadcrumbs } from "../breadcrumbs";
import { VerdictBadge } from "../badges";
import { pct, words } from "../format";
import type { EvalCompare } from "../types";
import { PayloadView } from "../payload-view";

type Outcome = EvalCompare["questions"][number]["outcome"];
export const OUTCOMES: Array<{ id: Outcome; label: string; tone: BadgeTone }> = [
  { id: "regressed", label: "Regressed", tone: "danger" },
  { id: "fixed", label: "Fixed", tone: "success" },
  { id: "both_fail", label: "Both fail", tone: "warning" },
  { id: "both_pass", label: "Both pass", tone: "neutral" },
  { id: "incomplete", label: "Incomplete", tone: "info" },
  { id: "only_a", label: "Only in A", tone: "neutral" },
  { id: "only_b", label: "Only in B", tone: "neutral" },
];
const ROW_TONE: Partial<Record<Outcome, string>> = { regressed: "bg-red-50/70", fixed: "bg-emerald-50/70", both_fail: "bg-amber-50/50" };

/** Two runs question by question (matched by sample key): deltas, warnings, regressions highlighted, both answers side by side. */
export function CompareView({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const [url, go] = useEvalUrl();
  const [only, setOnly] = useState<Outcome | "all">("all");
  const [open, setOpen] = useState<string | null>(null);
  const runs = useQuery(trpc.eval.runs.list.queryOptions({ agentId, limit: 200 }));
  const done = (runs.data?.items ?? []).filter((r) => r.status === "awaiting_review" || r.status === "completed");
  const cmp = useQuery({ ...trpc.eval.runs.compare.queryOptions({ run_a: url.a ?? "", run_b: url.b ?? "" }), enabled: !!url.a && !!url.b });
  const picker = (side: "a" | "b") => (
    <label className="text-xs font-medium text-slate-600">
      Run {side.toUpperCase()} {side === "a" ? "(before)" : "(after)"}
      <select className={cn(inputClass, "mt-1 w-72")} value={url[side] ?? ""} onChange={(e) => go({ [side]: e.target.value || undefined }, { replace: true })}>
        <option value="">Choose a run…</option>
        {done.map((r) => (
          <option key={r.id} value={r.shortId}>
            {r.shortId} · {r.setName} v{r.setVersion} · agent v{r.workflowVersion} · {words(r.tier)}
          </option>
        ))}
      </select>
    </label>
  );
  const c = cmp.data;
  const needle = url.q?.toLowerCase();
  const rows = c ? c.questions.filter((q) => (only === "all" || q.outcome === only) && (!needle || q.key.toLowerCase() === needle || q.question.toLowerCase().includes(needle))) : [];
  return (
    <div className="space-y-5">
      <Breadcrumbs items={[{ label: "Runs", to: { tab: "runs" } }, { label: "Compare" }]} />
      <div className="flex flex-wrap items-end gap-4" role="group" aria-label="Runs to compare">
        {picker("a")}
        {picker("b")}
      </div>
      {!url.a || !url.b ? (
        <EmptyState title="Choose two runs">Pick the run before a change as A and the run after it (for example its re-run) as B. Questions are matched by their key.</EmptyState>
      ) : cmp.error ? (
        <ErrorState error={cmp.error} onRetry={() => cmp.refetch()} />
      ) : !c ? (
        <LoadingRows rows={6} label="Comparing" />
      ) : (
        <>
          {c.warnings.length > 0 && (
            <ul className="space-y-1 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900" aria-label="Warnings">
              {c.warnings.map((w) => (
                <li key={w.code}>⚠ {w.message}</li>
              ))}
            </ul>
          )}
          <Card title={`${c.runA.shortId} → ${c.runB.shortId}`} description="From human verdicts; the machine's outcome is shown beside, never mixed.">
            <dl className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              <Stat label="Human-confirmed pass rate" value={`${pct(c.passRates.human.a)} → ${pct(c.passRates.human.b)}`} hint={delta(c.passRates.human.delta)} tone={(c.passRates.human.delta ?? 0) < 0 ? "bad" : (c.passRates.human.delta ?? 0) > 0 ? "good" : "default"} />
              <Stat label="Machine pass rate" value={`${pct(c.passRates.machine.a)} → ${pct(c.passRates.machine.b)}`} hint={delta(c.passRates.machine.delta)} />
              <Stat label="Fixed" value={c.summary.fixed} hint="fail in A, pass in B" tone={c.summary.fixed ? "good" : "default"} />
              <Stat label="Regressed" value={c.summary.regressed} hint="pass in A, fail in B" tone={c.summary.regressed ? "bad" : "default"} />
            </dl>
          </Card>
          {url.q && (
            <p className="text-sm text-slate-600">
              Showing the questions matching “{url.q}”.{" "}
              <button type="button" className="font-medium text-brand-700 hover:underline" onClick={() => go({ q: undefined }, { replace: true })}>
                Show all
              </button>
            </p>
          )}
          <div className="flex flex-wrap gap-2" role="group" aria-label="Show questions">
            <FilterChip active={only === "all"} onClick={() => setOnly("all")} label={`All (${c.questions.length})`} />
            {OUTCOMES.filter((o) => c.summary[o.id] > 0).map((o) => (
              <FilterChip key={o.id} active={only === o.id} onClick={() => setOnly(o.id)} label={`${o.label} (${c.summary[o.id]})`} />
            ))}
          </div>
          <Table caption="Questions of both runs">
            <THead>
              <tr>
                <Th className="w-20">Key</Th>
                <Th>Question</Th>
                <Th className="w-32">A</Th>
                <Th className="w-32">B</Th>
                <Th className="w-32">Outcome</Th>
              </tr>
            </THead>
            <tbody>
              {rows.map((q) => {
                const o = OUTCOMES.find((x) => x.id === q.outcome)!;
                const expanded = open === q.key;
                return (
                  <Fragment key={q.key}>
                    <Tr className={ROW_TONE[q.outcome] ?? ""}>
                      <Td className="font-mono text-xs">{q.key}</Td>
                      <Td>
                        <button type="button" aria-expanded={expanded} onClick={() => setOpen(expanded ? null : q.key)} className="text-left font-medium text-slate-900 hover:text-brand-700 hover:underline">
                          <span aria-hidden="true" className="mr-1 inline-block w-3 text-slate-400">
                            {expanded ? "▾" : "▸"}
                          </span>
                          {q.question}
                        </button>
                        {q.classification && <div className="mt-0.5 pl-4 text-xs text-slate-500">{q.classification}</div>}
                      </Td>
                      <Td>{q.a ? <VerdictBadge verdict={q.a.human} /> : "—"}</Td>
                      <Td>{q.b ? <VerdictBadge verdict={q.b.human} /> : "—"}</Td>
                      <Td>
                        <Badge tone={o.tone}>{o.label}</Badge>
                        {q.machineOutcome !== q.outcome && <div className="mt-1 text-xs text-slate-500">machine: {words(q.machineOutcome)}</div>}
                      </Td>
                    </Tr>
                    {expanded && (
                      <tr>
                        <td colSpan={5} className="bg-slate-50 p-3">
                          <div className="grid gap-3 lg:grid-cols-2">
                            <AnswerSide label={`A · ${c.runA.shortId}`} runId={c.runA.id} itemId={q.a?.itemId} />
                            <AnswerSide label={`B · ${c.runB.shortId}`} runId={c.runB.id} itemId={q.b?.itemId} />
                          </div>
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </Table>
        </>
      )}
    </div>
  );
}

const delta = (d: number | null) => (d === null ? "—" : `${d > 0 ? "+" : ""}${(d * 100).toFixed(1)} points`);

function FilterChip({ active, onClick, label }: { active: boolean; onClick: () => void; label: string }) {
  return (
    <button type="button" aria-pressed={active} onClick={onClick} className={`rounded-full border px-3 py-1 text-xs font-medium ${active ? "border-brand-500 bg-brand-50 text-brand-700" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"}`}>
      {label}
    </button>
  );
}

function AnswerSide({ label, runId, itemId }: { label: string; runId: string; itemId?: string }) {
  const trpc = useTRPC();
  const item = useQuery({ ...trpc.eval.items.get.queryOptions({ id: runId, itemId: itemId ?? "" }), enabled: !!itemId });
  return (
    <section aria-label={label} className="rounded-lg border border-slate-200 bg-white p-3">
      <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</h4>
      {!itemId ? (
        <p className="mt-2 text-sm text-slate-500">Not in this run.</p>
      ) : !item.data ? (
        <div className="mt-2">
          <Spinner label="Loading the answer" />
        </div>
      ) : (
        <div className="mt-2 space-y-2 text-sm">
          <div className="flex flex-wrap gap-2">
            <VerdictBadge verdict={item.data.verdict?.verdict} source={item.data.verdict?.source} />
            {item.data.verdict?.attribution && <Badge>{words(item.data.verdict.attribution)}</Badge>}
          </div>
          {item.data.verdict?.basis && <p className="text-xs text-slate-600">Basis: {item.data.verdict.basis}</p>}
          <p className="whitespace-pre-wrap text-slate-800">{item.data.answer || <span className="text-slate-500">(no answer){item.data.error ? `: ${item.data.error}` : ""}</span>}</p>
          {item.data.payload && <PayloadView payload={item.data.payload} compact />}
        </div>
      )}
    </section>
  );
}
