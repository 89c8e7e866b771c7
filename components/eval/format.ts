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
