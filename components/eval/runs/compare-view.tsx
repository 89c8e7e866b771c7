"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Fragment } from "react";
import { useTRPC } from "@/lib/trpc";
import { useVocabulary } from "../hooks/use-vocabulary";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, Stat } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { EmptyState, ErrorState, LoadingRows, Spinner } from "@/components/ui/feedback";
import { Pagination } from "@/components/ui/pagination";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { ToggleChip } from "@/components/ui/toggle-chip";
import { useEvalUrl, EvalLink } from "../context";
import { Breadcrumbs } from "../breadcrumbs";
import { VerdictBadge } from "../badges";
import { pct, pctRange, plural, words } from "../format";
import type { EvalCompare } from "../types";
import { PayloadView } from "../payload-view";
import { COMPARE_OUTCOMES, compareQuery, type CompareOutcome } from "../url-state";

type Outcome = EvalCompare["questions"][number]["outcome"];
const PAGE = 50;
const OUTCOME_TONES: Record<CompareOutcome, BadgeTone> = {
  regressed: "danger",
  fixed: "success",
  both_fail: "warning",
  both_pass: "neutral",
  incomplete: "info",
  only_a: "neutral",
  only_b: "neutral",
};
const ROW_TONE: Partial<Record<Outcome, string>> = {
  regressed: "bg-red-50/70",
  fixed: "bg-emerald-50/70",
  both_fail: "bg-amber-50/50",
};

/**
 * Two runs question by question (matched by sample key): deltas, warnings, regressions highlighted, both answers side
 * by side. The questions are paged and filtered by the server (outcome, text); the outcome, the page and the opened
 * question are in the URL, so a view of a 10,000-question comparison can be shared.
 */
export function CompareView({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const [url, go] = useEvalUrl();
  const runs = useQuery(trpc.eval.runs.list.queryOptions({ agentId, limit: 200 }));
  const done = (runs.data?.items ?? []).filter((r) => r.status === "awaiting_review" || r.status === "completed");
  const cmp = useQuery({
    ...trpc.eval.runs.compare.queryOptions(compareQuery(url, PAGE)),
    enabled: !!url.a && !!url.b,
    placeholderData: keepPreviousData,
  });
  const filter = (patch: Parameters<typeof go>[0]) =>
    go({ page: undefined, open: undefined, ...patch }, { replace: true });
  // the outcomes in the order the page offers them, named as the server's vocabulary names them (eval.meta)
  const vocabulary = useVocabulary();
  const OUTCOMES = COMPARE_OUTCOMES.map((id) => ({
    id,
    label: vocabulary.data?.compareOutcomes.find((o) => o.id === id)?.label ?? words(id),
    tone: OUTCOME_TONES[id],
  }));
  const picker = (side: "a" | "b") => (
    <label className="text-xs font-medium text-slate-600">
      Run {side.toUpperCase()} {side === "a" ? "(before)" : "(after)"}
      <select
        className={cn(inputClass, "mt-1 w-72 max-w-full")}
        value={url[side] ?? ""}
        onChange={(e) => filter({ [side]: e.target.value || undefined })}
      >
        <option value="">Choose a run…</option>
        {url[side] && !done.some((r) => r.shortId === url[side] || r.id === url[side]) && (
          <option value={url[side]}>{url[side]}</option>
        )}
        {done.map((r) => (
          <option key={r.id} value={r.shortId}>
            {r.shortId} · {r.setName} v{r.setVersion} · agent v{r.workflowVersion} · {words(r.tier)}
          </option>
        ))}
      </select>
    </label>
  );
  const c = cmp.data && "runA" in cmp.data ? cmp.data : undefined;
  const rows = c?.questions ?? [];
  const page = url.page ?? 1;
  const searchedTotal = c ? Object.values(c.page.matching).reduce((x, y) => x + y, 0) : 0;
  return (
    <div className="space-y-5">
      <Breadcrumbs items={[{ label: "Runs", to: { tab: "runs" } }, { label: "Compare" }]} />
      <div className="flex flex-wrap items-end gap-4" role="group" aria-label="Runs to compare">
        {picker("a")}
        {picker("b")}
      </div>
      {!url.a || !url.b ? (
        <EmptyState title="Choose two runs">
          Pick the run before a change as A and the run after it (for example its re-run) as B. Questions are matched by
          their key.
        </EmptyState>
      ) : cmp.error ? (
        <ErrorState error={cmp.error} onRetry={() => cmp.refetch()} />
      ) : !c ? (
        <LoadingRows rows={6} label="Comparing" />
      ) : (
        <>
          {c.warnings.length > 0 && (
            <ul
              className="space-y-1 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
              aria-label="Warnings"
            >
              {c.warnings.map((w) => (
                <li key={w.code}>⚠ {w.message}</li>
              ))}
            </ul>
          )}
          <Card
            title={`${c.runA.shortId} → ${c.runB.shortId}`}
            description="From human verdicts; the machine's outcome is shown beside, never mixed."
          >
            <dl className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              <Stat
                label="Human-confirmed pass rate"
                value={rates(c.passRates.human, c.runA.judged, c.runB.judged, "no verdicts")}
                hint={change(c.passRates.human.delta, c, "judged", "verdicts")}
                tone={
                  (c.passRates.human.delta ?? 0) < 0 ? "bad" : (c.passRates.human.delta ?? 0) > 0 ? "good" : "default"
                }
              />
              <Stat
                label="Machine pass rate"
                value={rates(c.passRates.machine, c.runA.suggested, c.runB.suggested, "no suggestions")}
                hint={change(c.passRates.machine.delta, c, "suggested", "suggestions")}
              />
              <Stat
                label="Fixed"
                value={c.summary.fixed}
                hint="fail in A, pass in B"
                tone={c.summary.fixed ? "good" : "default"}
              />
              <Stat
                label="Regressed"
                value={c.summary.regressed}
                hint="pass in A, fail in B"
                tone={c.summary.regressed ? "bad" : "default"}
              />
            </dl>
            {c.badCases.fixed + c.badCases.stillFailing + c.badCases.notJudged + c.badCases.notInB > 0 && (
              <p className="mt-4 text-sm text-slate-700">
                Bad Cases of {c.runA.shortId}:{" "}
                <span className="font-medium text-emerald-700">{c.badCases.fixed} fixed</span> ·{" "}
                <span className="font-medium text-red-700">{c.badCases.stillFailing} still failing</span>
                {c.badCases.notJudged > 0 && ` · ${c.badCases.notJudged} not judged in ${c.runB.shortId} yet`}
                {c.badCases.notInB > 0 && ` · ${c.badCases.notInB} not in ${c.runB.shortId}`}. A fixed one can be marked
                verified on its page.
              </p>
            )}
          </Card>
          <PairedCard c={c} />
          {url.q && (
            <p className="text-sm text-slate-600">
              Showing the questions matching “{url.q}”.{" "}
              <button
                type="button"
                className="font-medium text-brand-700 hover:underline"
                onClick={() => filter({ q: undefined })}
              >
                Show all
              </button>
            </p>
          )}
          <div className="flex flex-wrap gap-2" role="group" aria-label="Show questions">
            <ToggleChip pressed={!url.outcome} onClick={() => filter({ outcome: undefined })}>
              All ({searchedTotal.toLocaleString("en-US")})
            </ToggleChip>
            {OUTCOMES.filter((o) => c.page.matching[o.id] > 0 || url.outcome === o.id).map((o) => (
              <ToggleChip key={o.id} pressed={url.outcome === o.id} onClick={() => filter({ outcome: o.id })}>
                {`${o.label} (${c.page.matching[o.id].toLocaleString("en-US")})`}
              </ToggleChip>
            ))}
          </div>
          {rows.length === 0 ? (
            c.page.total > 0 ? (
              <EmptyState
                title="Past the last page"
                action={
                  <Button variant="secondary" onClick={() => filter({})}>
                    First page
                  </Button>
                }
              >
                {plural(c.page.total, "question")} match; this page is after the last one.
              </EmptyState>
            ) : (
              <EmptyState title="No question here">
                {url.outcome ? "No question of the comparison has this outcome" : "No question matches"}
                {url.q ? ` with “${url.q}”` : ""}.
              </EmptyState>
            )
          ) : (
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
                  const expanded = url.open === q.key;
                  return (
                    <Fragment key={q.key}>
                      <Tr className={ROW_TONE[q.outcome] ?? ""}>
                        <Td className="font-mono text-xs">{q.key}</Td>
                        <Td>
                          <button
                            type="button"
                            aria-expanded={expanded}
                            onClick={() => go({ open: expanded ? undefined : q.key }, { replace: true })}
                            className="text-left font-medium text-slate-900 hover:text-brand-700 hover:underline"
                          >
                            <span aria-hidden="true" className="mr-1 inline-block w-3 text-slate-400">
                              {expanded ? "▾" : "▸"}
                            </span>
                            {q.question}
                          </button>
                          {q.classification && (
                            <div className="mt-0.5 pl-4 text-xs text-slate-600">{q.classification}</div>
                          )}
                        </Td>
                        <Td>{q.a ? <VerdictBadge verdict={q.a.human} /> : "—"}</Td>
                        <Td>{q.b ? <VerdictBadge verdict={q.b.human} /> : "—"}</Td>
                        <Td>
                          <Badge tone={o.tone}>{o.label}</Badge>
                          {q.machineOutcome !== q.outcome && (
                            <div className="mt-1 text-xs text-slate-600">machine: {words(q.machineOutcome)}</div>
                          )}
                          {q.badCase && (
                            <div className="mt-1 text-xs">
                              <EvalLink
                                to={{ tab: "bad-cases", case: q.badCase.id }}
                                className={
                                  q.badCase.result === "fixed"
                                    ? "font-medium text-emerald-700 hover:underline"
                                    : q.badCase.result === "still_failing"
                                      ? "font-medium text-red-700 hover:underline"
                                      : "text-slate-600 hover:underline"
                                }
                              >
                                Bad Case{" "}
                                {q.badCase.result === "fixed"
                                  ? "fixed"
                                  : q.badCase.result === "still_failing"
                                    ? "still failing"
                                    : q.badCase.result === "not_judged"
                                      ? "not judged in B"
                                      : "not in B"}
                              </EvalLink>
                            </div>
                          )}
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
          )}
          <Pagination
            label="Question pages"
            from={c.page.offset + 1}
            to={c.page.offset + rows.length}
            total={c.page.total}
            hasPrev={page > 1}
            hasNext={c.page.offset + rows.length < c.page.total}
            onPrev={() => go({ page: page - 1 > 1 ? page - 1 : undefined, open: undefined }, { replace: true })}
            onNext={() => go({ page: page + 1, open: undefined }, { replace: true })}
          />
        </>
      )}
    </div>
  );
}

const delta = (d: number | null) => (d === null ? "—" : `${d > 0 ? "+" : ""}${(d * 100).toFixed(1)} points`);

/** "60% → 100%"; a run with nothing to count says so ("no verdicts"), never 0 %; both without: said once. */
function rates(r: { a: number | null; b: number | null }, countedA: number, countedB: number, none: string) {
  if (!countedA && !countedB) return none;
  return `${countedA ? pct(r.a) : none} → ${countedB ? pct(r.b) : none}`;
}

/** The change in points, or which run has nothing to compare yet. */
function change(d: number | null, c: EvalCompare, counted: "judged" | "suggested", noun: string) {
  const without = [c.runA, c.runB].filter((r) => !r[counted]).map((r) => r.shortId);
  if (without.length === 2) return `neither run has ${noun} yet`;
  if (without.length === 1) return `no change to show: ${without[0]} has no ${noun} yet`;
  return delta(d);
}

/**
 * The paired comparison (two runs of one set version): the 2x2 table of the questions both runs have a human verdict
 * for, the exact McNemar sentence, and each run's human pass rate with its 95 % interval; on different versions, why
 * there is no pairing.
 */
function PairedCard({ c }: { c: EvalCompare }) {
  const p = c.paired;
  const h = c.passRates.human;
  const cell = (value: number, tone: "same" | "better" | "worse", label: string) => (
    <td
      aria-label={label}
      className={cn(
        "px-4 py-2 text-center text-lg font-semibold tabular-nums",
        tone === "same" && "bg-slate-50 text-slate-800",
        tone === "better" && "bg-emerald-50 text-emerald-800",
        tone === "worse" && "bg-red-50 text-red-800",
      )}
    >
      {value}
    </td>
  );
  return (
    <Card
      title="Paired comparison"
      description="The same questions in both runs, by human verdict: only the questions that changed tell the runs apart."
    >
      <div id="paired" className="flex flex-wrap items-start gap-6">
        {p ? (
          <table className="border-separate border-spacing-1 text-sm">
            <caption className="sr-only">
              Questions both runs judged ({p.n}): {c.runA.shortId} against {c.runB.shortId}
            </caption>
            <thead>
              <tr>
                <th />
                <th scope="col" className="px-2 text-xs font-medium text-slate-600">
                  {c.runB.shortId}: pass
                </th>
                <th scope="col" className="px-2 text-xs font-medium text-slate-600">
                  {c.runB.shortId}: fail
                </th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row" className="text-right text-xs font-medium text-slate-600">
                  {c.runA.shortId}: pass
                </th>
                {cell(p.bothPass, "same", "both pass")}
                {cell(p.onlyA, "worse", "pass in A only")}
              </tr>
              <tr>
                <th scope="row" className="text-right text-xs font-medium text-slate-600">
                  {c.runA.shortId}: fail
                </th>
                {cell(p.onlyB, "better", "pass in B only")}
                {cell(p.bothFail, "same", "both fail")}
              </tr>
            </tbody>
          </table>
        ) : null}
        <div className="min-w-64 flex-1 space-y-2 text-sm text-slate-700">
          <p className="font-medium text-slate-900" data-testid="paired-sentence">
            {p ? p.sentence : `No paired comparison: ${c.pairedUnavailable?.reason ?? "the runs cannot be paired"}.`}
          </p>
          {p && p.n > 0 && (
            <p>
              Over the {plural(p.n, "question")} both runs judged; exact McNemar test, p = {p.pValue.toPrecision(3)}.
            </p>
          )}
          <p>
            Human-confirmed pass rate, 95 % interval of the judged: {c.runA.shortId} {pctRange(h.interval.a)} (n {h.n.a}
            ) · {c.runB.shortId} {pctRange(h.interval.b)} (n {h.n.b})
          </p>
        </div>
      </div>
    </Card>
  );
}

function AnswerSide({ label, runId, itemId }: { label: string; runId: string; itemId?: string }) {
  const trpc = useTRPC();
  const item = useQuery({
    ...trpc.eval.items.get.queryOptions({ id: runId, itemId: itemId ?? "" }),
    enabled: !!itemId,
  });
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
          <p className="whitespace-pre-wrap text-slate-800">
            {item.data.answer || (
              <span className="text-slate-500">(no answer){item.data.error ? `: ${item.data.error}` : ""}</span>
            )}
          </p>
          {item.data.payload && <PayloadView payload={item.data.payload} compact />}
        </div>
      )}
    </section>
  );
}
