"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTRPC } from "@/lib/trpc";
import { Card, Stat } from "@/components/ui/card";
import { ErrorState, LoadingRows } from "@/components/ui/feedback";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { CountBars, PassRateBars } from "../charts";
import { costNote, costText, count, ms, pct, pctRange, words } from "../format";
import type { EvalReport } from "../types";
import { EvalLink } from "../context";
import { AuditSummary } from "./audit-summary";
import { GateBanner } from "./gate-banner";
import { ConsistencyCard } from "./consistency-card";

/**
 * The intervals the bars draw: only where the bar's rate is the rate the interval is of, i.e. every question of the
 * group counted (a rate of all questions with unjudged ones left is not the rate of the judged; the table gives it).
 */
type Interval = { low: number; high: number } | null;
function ranges(g: {
  total: number;
  humanN: number;
  machineN: number;
  humanInterval: Interval;
  machineInterval: Interval;
}) {
  return {
    humanRange: g.humanN === g.total ? g.humanInterval : null,
    machineRange: g.machineN === g.total ? g.machineInterval : null,
  };
}

/** How strong a kappa is, in the usual words (Landis and Koch). */
export function kappaWords(k: number | null): string {
  if (k === null) return "undefined";
  if (k < 0) return "worse than chance";
  if (k < 0.2) return "slight";
  if (k < 0.4) return "fair";
  if (k < 0.6) return "moderate";
  if (k < 0.8) return "substantial";
  return "almost perfect";
}

/** The run report: the gate, machine and human pass rates side by side (never mixed), breakdowns as charts with tables, agreement, latency, tokens. */
export function ReportView({ runId, live }: { runId: string; live: boolean }) {
  const trpc = useTRPC();
  const report = useQuery({
    ...trpc.eval.runs.report.queryOptions({ id: runId }),
    // while the run answers, and after it while suggestions are still being made (the LLM judge works after answering)
    refetchInterval: (q) => (live || (q.state.data && suggestionsPending(q.state.data)) ? 3000 : false),
  });
  if (report.error) return <ErrorState error={report.error} onRetry={() => report.refetch()} />;
  if (!report.data) return <LoadingRows rows={6} label="Loading the report" />;
  const r: EvalReport = report.data;
  const byClass = r.breakdown.byClassification.map((g) => ({
    group: g.classification,
    machine: g.machinePassRate,
    human: g.humanPassRate,
    ...ranges(g),
  }));
  const byTier = r.breakdown.byTier.map((g) => ({
    group: words(g.tier),
    machine: g.machinePassRate,
    human: g.humanPassRate,
    ...ranges(g),
  }));
  const a = r.agreement;
  const answering = r.machine.counted < r.completeness.total;
  const pending = suggestionsPending(r);

  return (
    <div id="report" className="space-y-5">
      <GateBanner gate={r.gate} kind={r.set.kind} currentThreshold={r.set.currentGateThreshold} />
      {r.set.kind === "golden" && <AuditSummary audit={r.audit} runId={r.run.shortId} />}

      <Card
        title="Pass rates"
        description={`Of all questions: an unjudged question is not a pass${answering ? " (the machine's rate counts the questions answered so far while the run answers)" : ""}. Machine and human numbers are never mixed.`}
      >
        <dl className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          <Stat
            label="Human-confirmed pass rate"
            value={pct(r.human.passRate)}
            hint={`${r.human.pass} pass · ${r.human.fail} fail · ${r.human.unjudged} unjudged (${pct(r.human.passRateOfJudged)} of ${r.human.n} judged, 95 % interval ${pctRange(r.human.interval)})`}
            tone={r.gate.passed ? "good" : "default"}
          />
          <Stat
            label="Machine suggestion pass rate"
            value={pct(r.machine.passRate)}
            hint={`${r.machine.pass} pass · ${r.machine.fail} fail · ${r.machine.unknown} unknown (95 % interval ${pctRange(r.machine.interval)} of ${r.machine.n} suggested)${answering ? `, of ${r.machine.counted} answered so far` : ""}${pending ? ` · ${pending} still being judged` : ""} — assistance only`}
          />
          <Stat
            label="Completeness"
            value={`${r.completeness.judged}/${r.completeness.total}`}
            hint={`${r.completeness.human} typed by people · ${r.completeness.adopted} adopted suggestions`}
          />
          <Stat
            label="Judge vs people"
            value={a.rawAgreement === null ? "—" : pct(a.rawAgreement)}
            hint={
              // the same typed verdicts as Completeness: the pairs are those whose suggestion said pass or fail
              a.pairs
                ? `raw agreement on ${a.pairs} of ${a.typed} typed verdicts${a.typed > a.pairs ? ` (${a.typed - a.pairs} without a pass/fail suggestion)` : ""} · κ ${a.kappa === null ? "—" : a.kappa.toFixed(2)} (${kappaWords(a.kappa)})`
                : a.typed
                  ? `${a.typed} typed verdicts, none with a pass/fail suggestion to compare`
                  : "no human-typed verdicts yet"
            }
          />
        </dl>
      </Card>

      <div className="grid gap-5 xl:grid-cols-2">
        <Card title="By scenario" description="Pass rate per business scenario: machine suggestion vs human-confirmed">
          {byClass.length ? (
            <>
              <PassRateBars data={byClass} label="Machine and human-confirmed pass rate by scenario" />
              <Numbers>
                <GroupTable
                  rows={r.breakdown.byClassification.map((g) => ({ name: g.classification, ...g }))}
                  nameLabel="Scenario"
                />
              </Numbers>
            </>
          ) : (
            <p className="text-sm text-slate-500">No scenario yet.</p>
          )}
        </Card>
        <Card
          title="Failures by attribution"
          description="Where in the chain the failed answers broke (human fail verdicts)"
        >
          {r.breakdown.byAttribution.length ? (
            <>
              <CountBars
                tone="fail"
                valueName="Failed questions"
                label="Failed questions by attribution"
                data={r.breakdown.byAttribution.map((x) => ({ name: words(x.attribution), value: x.fails }))}
              />
              <Numbers>
                <CountTable
                  caption="Failed questions by attribution"
                  nameLabel="Attribution"
                  valueLabel="Failed questions"
                  of={r.human.fail}
                  ofLabel="of human fails"
                  rows={r.breakdown.byAttribution.map((x) => ({ name: words(x.attribution), value: x.fails }))}
                />
              </Numbers>
            </>
          ) : (
            <p className="text-sm text-slate-500">No failed verdict yet.</p>
          )}
        </Card>
        <Card title="Guardrail flags" description="Items the machine flagged (spot-check them)">
          {r.breakdown.byFlag.length ? (
            <>
              <CountBars
                tone="warn"
                valueName="Items"
                label="Items by guardrail flag"
                data={r.breakdown.byFlag.map((x) => ({ name: words(x.flag), value: x.items }))}
              />
              <Numbers>
                <CountTable
                  caption="Items by guardrail flag"
                  nameLabel="Flag"
                  valueLabel="Items"
                  of={r.completeness.total}
                  ofLabel="of all questions"
                  rows={r.breakdown.byFlag.map((x) => ({ name: words(x.flag), value: x.items }))}
                />
              </Numbers>
            </>
          ) : (
            <p className="text-sm text-slate-500">No flag raised.</p>
          )}
        </Card>
        <Card title="Judge vs people" description={a.basis}>
          <p className="mb-3 text-sm text-slate-700">
            Judge: <strong className="font-semibold text-slate-900">{a.judge.label}</strong>
            {a.judge.model ? ` (model ${a.judge.model})` : ""} ·{" "}
            <EvalLink
              to={{ tab: "sets", set: r.set.id, judge: a.judge.key }}
              className="font-medium text-brand-700 hover:underline"
            >
              its calibration on this set
            </EvalLink>
          </p>
          <AgreementMatrix matrix={a.matrix} />
          <p className="mt-2 text-xs text-slate-500">
            {a.pairs} pairs · expected by chance {pct(a.expectedAgreement)} · Cohen&apos;s κ{" "}
            {a.kappa === null ? "undefined" : a.kappa.toFixed(3)}
            {a.note ? ` (${a.note})` : ""} · left out: {a.excludedAdopted} adopted, {a.excludedUnknown} unknown
            suggestions
          </p>
        </Card>
      </div>

      <div className="grid gap-5 xl:grid-cols-2">
        <Card title="By tier" description="Pass rate per chain tier: machine suggestion vs human-confirmed">
          {byTier.length ? (
            <>
              <PassRateBars data={byTier} label="Machine and human-confirmed pass rate by tier" />
              <Numbers>
                <GroupTable rows={r.breakdown.byTier.map((g) => ({ name: words(g.tier), ...g }))} nameLabel="Tier" />
              </Numbers>
            </>
          ) : (
            <p className="text-sm text-slate-500">No answered question yet.</p>
          )}
        </Card>
        <Card title="Latency and tokens">
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
            <Stat label="Latency p50" value={ms(r.latency.p50Ms)} />
            <Stat label="p95" value={ms(r.latency.p95Ms)} />
            <Stat label="Max" value={ms(r.latency.maxMs)} />
            <Stat label="Mean" value={ms(r.latency.meanMs)} hint={`${r.latency.items} answers`} />
            <Stat
              label="Answer tokens"
              value={count(r.tokens.answering.totalTokens)}
              hint={`${count(r.tokens.answering.promptTokens)} prompt · ${count(r.tokens.answering.completionTokens)} completion`}
            />
            <Stat label="Model calls" value={count(r.tokens.answering.modelCalls)} />
            <Stat
              label="Judge tokens"
              value={count(r.tokens.judging.tokens)}
              hint={`${count(r.tokens.judging.modelCalls)} judge calls`}
            />
            <Stat label="Cost (answering)" value={costText(r.cost, "answering")} />
            <Stat label="Cost (judging)" value={costText(r.cost, "judging")} />
            <Stat
              label="Cost"
              value={costText(r.cost, "total")}
              hint={costNote(r.cost) || "with the price table in Settings"}
            />
          </dl>
        </Card>
        <ConsistencyCard report={r} />
      </div>
    </div>
  );
}

/** Answered questions whose machine suggestion has not been made yet (the LLM judge runs after answering). */
function suggestionsPending(r: EvalReport): number {
  const t = r.totals;
  return Math.max(0, r.machine.none - t.pending - t.answering - t.cancelled);
}

/** The numbers behind a chart, one click away (charts.tsx: nothing is only in a picture). */
function Numbers({ children }: { children: ReactNode }) {
  return (
    <details className="mt-2 text-sm">
      <summary className="cursor-pointer text-xs font-medium text-slate-600">The numbers</summary>
      {children}
    </details>
  );
}

function CountTable({
  caption,
  nameLabel,
  valueLabel,
  rows,
  of,
  ofLabel,
}: {
  caption: string;
  nameLabel: string;
  valueLabel: string;
  rows: Array<{ name: string; value: number }>;
  of: number;
  ofLabel: string;
}) {
  return (
    <Table caption={caption} className="mt-2 shadow-none">
      <THead>
        <tr>
          <Th>{nameLabel}</Th>
          <Th className="text-right">{valueLabel}</Th>
          <Th className="text-right">Share {ofLabel}</Th>
        </tr>
      </THead>
      <tbody>
        {rows.map((x) => (
          <Tr key={x.name}>
            <Td>{x.name}</Td>
            <Td className="text-right tabular-nums">{count(x.value)}</Td>
            <Td className="text-right tabular-nums text-slate-500">{of ? pct(x.value / of) : "—"}</Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}

function GroupTable({
  rows,
  nameLabel,
}: {
  rows: Array<{
    name: string;
    total: number;
    humanPass: number;
    humanFail: number;
    judged: number;
    machinePass: number;
    humanPassRate: number | null;
    machinePassRate: number | null;
    humanN: number;
    humanInterval: { low: number; high: number } | null;
    machineInterval: { low: number; high: number } | null;
  }>;
  nameLabel: string;
}) {
  return (
    <Table caption={`Pass rates by ${nameLabel.toLowerCase()}`} className="mt-2 shadow-none">
      <THead>
        <tr>
          <Th>{nameLabel}</Th>
          <Th className="text-right">Questions</Th>
          <Th className="text-right">Human pass</Th>
          <Th className="text-right">Human fail</Th>
          <Th className="text-right">
            Human rate <span className="block font-normal normal-case">95 % interval of judged</span>
          </Th>
          <Th className="text-right">
            Machine rate <span className="block font-normal normal-case">95 % interval</span>
          </Th>
        </tr>
      </THead>
      <tbody>
        {rows.map((g) => (
          <Tr key={g.name}>
            <Td>{g.name}</Td>
            <Td className="text-right tabular-nums">{g.total}</Td>
            <Td className="text-right tabular-nums">{g.humanPass}</Td>
            <Td className="text-right tabular-nums">{g.humanFail}</Td>
            <Td className="text-right tabular-nums">
              <span className="font-medium">{pct(g.humanPassRate)}</span>
              <span className="block text-xs text-slate-600">
                {pctRange(g.humanInterval)} · n {g.humanN}
              </span>
            </Td>
            <Td className="text-right tabular-nums text-slate-600">
              {pct(g.machinePassRate)}
              <span className="block text-xs">{pctRange(g.machineInterval)}</span>
            </Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}

function AgreementMatrix({ matrix }: { matrix: Record<string, number> }) {
  const cell = (k: string, agree: boolean) => (
    <td
      className={`px-4 py-3 text-center text-lg font-semibold tabular-nums ${agree ? "bg-emerald-50 text-emerald-800" : "bg-red-50 text-red-800"}`}
    >
      {matrix[k] ?? 0}
    </td>
  );
  return (
    <table className="w-full max-w-sm border-separate border-spacing-1 text-sm">
      <caption className="sr-only">Machine suggestion against human verdict</caption>
      <thead>
        <tr>
          <th />
          <th scope="col" className="text-xs font-medium text-slate-500">
            People: pass
          </th>
          <th scope="col" className="text-xs font-medium text-slate-500">
            People: fail
          </th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row" className="text-right text-xs font-medium text-slate-500">
            Machine: pass
          </th>
          {cell("machinePass_humanPass", true)}
          {cell("machinePass_humanFail", false)}
        </tr>
        <tr>
          <th scope="row" className="text-right text-xs font-medium text-slate-500">
            Machine: fail
          </th>
          {cell("machineFail_humanPass", false)}
          {cell("machineFail_humanFail", true)}
        </tr>
      </tbody>
    </table>
  );
}
