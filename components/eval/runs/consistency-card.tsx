"use client";

import { Card, Stat } from "@/components/ui/card";
import { count, pct } from "../format";
import type { EvalReport } from "../types";

/**
 * Repeated answers (a run created with repeats > 1): how many questions got different machine suggestions from
 * their answers, and which. People judged the first answers only; the gate never counts these.
 */
export function ConsistencyCard({ report }: { report: EvalReport }) {
  const c = report.consistency;
  if (c.repeats <= 1) return null;
  return (
    <Card
      title="Consistency"
      description={`Each question was answered ${c.repeats} times; people judge the first answer, the gate counts only verdicts`}
    >
      <dl className="grid grid-cols-2 gap-4">
        <Stat label="Unstable questions" value={count(c.unstable.length)} hint={`of ${count(c.compared)} compared`} />
        <Stat label="Share unstable" value={pct(c.unstableShare)} />
      </dl>
      {c.unstable.length ? (
        <ul className="mt-4 divide-y divide-slate-100 text-sm" aria-label="Unstable questions">
          {c.unstable.map((u) => (
            <li key={u.key} className="flex items-center justify-between gap-3 py-1.5">
              <span className="font-mono text-xs text-slate-700">{u.key}</span>
              <span className="text-slate-600">{u.text}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-4 text-sm text-slate-500">Every question got the same suggestion from each of its answers.</p>
      )}
    </Card>
  );
}
