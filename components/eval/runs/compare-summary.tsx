"use client";

import { Card, Stat } from "@/components/ui/card";
import { pct } from "../format";
import type { EvalCompare } from "../types";

/** The warnings of a two-run comparison and its summary: both rates, the change, fixed and regressed, Bad Cases. */
export function CompareSummary({ c }: { c: EvalCompare }) {
  return (
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
            tone={(c.passRates.human.delta ?? 0) < 0 ? "bad" : (c.passRates.human.delta ?? 0) > 0 ? "good" : "default"}
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
    </>
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
