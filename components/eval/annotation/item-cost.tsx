"use client";

import { costNote, costText, count } from "../format";
import type { EvalItem } from "../types";

/**
 * What answering and judging this item cost, with the model price table as it is now (Settings): the amounts with
 * their currency, or "no price for gpt-x" when a model the item used has no price (never 0).
 */
export function ItemCost({ item }: { item: EvalItem }) {
  const c = item.cost;
  const tokens = item.promptTokens + item.completionTokens + item.judgeTokens;
  if (tokens === 0) return null;
  const note = costNote(c);
  return (
    <section aria-label="Cost" className="rounded-lg border border-slate-200 px-3 py-2 text-sm">
      <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Cost</h4>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
        <dt className="text-slate-500">Answering</dt>
        <dd className="tabular-nums text-slate-800">
          {costText(c, "answering")}{" "}
          <span className="text-slate-500">({count(item.promptTokens + item.completionTokens)} tokens)</span>
        </dd>
        <dt className="text-slate-500">Judging</dt>
        <dd className="tabular-nums text-slate-800">
          {costText(c, "judging")} <span className="text-slate-500">({count(item.judgeTokens)} tokens)</span>
        </dd>
        <dt className="font-medium text-slate-600">Total</dt>
        <dd className="font-medium tabular-nums text-slate-900">{costText(c, "total")}</dd>
      </dl>
      {note && c.total === null && <p className="mt-1 text-xs text-amber-800">{note}</p>}
    </section>
  );
}
