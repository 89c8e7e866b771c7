"use client";

import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { pctRange, plural } from "../format";
import type { EvalCompare } from "../types";

/**
 * The paired comparison (two runs of one set version): the 2x2 table of the questions both runs have a human verdict
 * for, the exact McNemar sentence, and each run's human pass rate with its 95 % interval; on different versions, why
 * there is no pairing.
 */
export function PairedCard({ c }: { c: EvalCompare }) {
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
