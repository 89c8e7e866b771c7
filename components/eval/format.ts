/** Formatting for the evaluation pages (pure). */
export function pct(rate: number | null | undefined, digits = 1): string {
  if (rate === null || rate === undefined || Number.isNaN(rate)) return "—";
  return `${(rate * 100).toFixed(digits).replace(/\.0+$/, "")}%`;
}

/** A 95 % interval as a range of whole percents ("74–97%"); "—" without one (nothing counted). */
export function pctRange(interval: { low: number; high: number } | null | undefined): string {
  if (!interval) return "—";
  return `${Math.round(interval.low * 100)}–${Math.round(interval.high * 100)}%`;
}

/** Dates: the shared formatters (the builder uses them too). */
export { ago, when } from "@/components/ui/time";

export function ms(value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  if (value < 1000) return `${Math.round(value)} ms`;
  if (value < 60_000) return `${(value / 1000).toFixed(value < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(value / 60_000)} min ${Math.round((value % 60_000) / 1000)} s`;
}

export function count(n: number | null | undefined): string {
  if (n === null || n === undefined) return "—";
  return n.toLocaleString("en-US");
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/** "pipeline_live" -> "pipeline live", "awaiting_review" -> "awaiting review". */
export function words(code: string): string {
  return code.replaceAll("_", " ");
}

/** The cost shape of reports, usage and items (server/core/prices.ts CostOut). */
export type CostLike = {
  currency: string | null;
  answering: number | null;
  judging: number | null;
  total: number | null;
  byCurrency: Array<{ currency: string; answering: number; judging: number; total: number }>;
  missingPrices: string[];
};

/** An amount with its currency: "USD 0.16", small amounts with up to 4 significant decimals ("USD 0.00018"). */
export function money(amount: number, currency: string): string {
  const digits = amount !== 0 && Math.abs(amount) < 0.01 ? 6 : 2;
  const text = amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: digits });
  return `${currency} ${text}`;
}

/**
 * One side of a cost (answering, judging or total) for people: the amount with its currency; "no price for gpt-x"
 * when a model used has no price (never 0); per currency ("USD 0.12 + EUR 0.05") when prices mix currencies.
 */
export function costText(cost: CostLike, side: "answering" | "judging" | "total"): string {
  const value = cost[side];
  if (value !== null) return cost.currency ? money(value, cost.currency) : count(value);
  if (cost.missingPrices.length) return `no price for ${cost.missingPrices.join(", ")}`;
  return cost.byCurrency.map((p) => money(p[side], p.currency)).join(" + ") || "—";
}

/** What a cost leaves out, for a hint: the models without a price and what the priced tokens cost; "" when complete. */
export function costNote(cost: CostLike): string {
  if (!cost.missingPrices.length) return cost.byCurrency.length > 1 ? "mixed currencies: summed per currency" : "";
  const priced = cost.byCurrency.map((p) => money(p.total, p.currency)).join(" + ");
  return `no price for ${cost.missingPrices.join(", ")}${priced ? `; priced models: ${priced}` : ""}`;
}
