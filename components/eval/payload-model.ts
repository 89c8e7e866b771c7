/**
 * How a structured answer payload (spec 2.5: e.g. a `goods_list`) is shown to people: lists of objects become
 * tables whose columns are the objects' fields, lists of plain values become chips, plain fields become a
 * definition list, nested objects become their own sections. Raw JSON stays one click away in the view. Pure.
 */
export type Cell =
  | { kind: "text"; text: string }
  | { kind: "number"; text: string }
  | { kind: "bool"; text: string }
  | { kind: "empty"; text: string }
  | { kind: "link"; text: string; href: string }
  | { kind: "image"; text: string; href: string }
  | { kind: "list"; text: string; items: string[] }
  | { kind: "json"; text: string };

export type PayloadBlock =
  | { kind: "table"; path: string; title: string; columns: string[]; rows: Array<Record<string, Cell>>; total: number }
  | { kind: "fields"; path: string; title: string; entries: Array<{ key: string; label: string; value: Cell }> }
  | { kind: "values"; path: string; title: string; values: Cell[]; total: number };

export const MAX_ROWS = 200;
const MAX_DEPTH = 3;
const MAX_CELL = 300;
/** Fields people look for first in an item list. */
const PRIORITY = ["name", "title", "dish", "label", "id", "sku", "scene", "category", "price", "unit", "currency", "stock", "quantity", "score", "url", "image"];

/** "goods_list" -> "Goods list", "priceCents" -> "Price cents". */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : key;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function cellOf(value: unknown): Cell {
  if (value === null || value === undefined || value === "") return { kind: "empty", text: "—" };
  if (typeof value === "number") return { kind: "number", text: Number.isInteger(value) ? String(value) : String(Math.round(value * 10_000) / 10_000) };
  if (typeof value === "boolean") return { kind: "bool", text: value ? "yes" : "no" };
  if (typeof value === "string") {
    if (/^https?:\/\/\S+$/i.test(value)) {
      return /\.(png|jpe?g|gif|webp|svg)(\?\S*)?$/i.test(value) ? { kind: "image", text: value, href: value } : { kind: "link", text: value, href: value };
    }
    return { kind: "text", text: value.length > MAX_CELL ? `${value.slice(0, MAX_CELL - 1)}…` : value };
  }
  if (Array.isArray(value) && value.length <= 20 && value.every((v) => typeof v === "string" || typeof v === "number" || typeof v === "boolean")) {
    const items = value.map((v) => String(v));
    return { kind: "list", text: items.join(", "), items };
  }
  const json = JSON.stringify(value);
  return { kind: "json", text: json.length > MAX_CELL ? `${json.slice(0, MAX_CELL - 1)}…` : json };
}

function columnsOf(rows: Array<Record<string, unknown>>): string[] {
  const freq = new Map<string, number>();
  for (const r of rows.slice(0, MAX_ROWS)) for (const k of Object.keys(r)) freq.set(k, (freq.get(k) ?? 0) + 1);
  const rank = (k: string) => {
    const p = PRIORITY.indexOf(k.toLowerCase());
    return p === -1 ? PRIORITY.length : p;
  };
  return [...freq.keys()].sort((a, b) => rank(a) - rank(b) || (freq.get(b) ?? 0) - (freq.get(a) ?? 0));
}

function walk(value: unknown, path: string, title: string, depth: number, out: PayloadBlock[]): void {
  if (Array.isArray(value)) {
    const objects = value.filter(isPlainObject);
    if (value.length > 0 && objects.length === value.length) {
      const columns = columnsOf(objects);
      const rows = objects.slice(0, MAX_ROWS).map((o) => Object.fromEntries(columns.map((c) => [c, cellOf(o[c])])));
      out.push({ kind: "table", path, title, columns, rows, total: value.length });
    } else {
      out.push({ kind: "values", path, title, values: value.slice(0, MAX_ROWS).map(cellOf), total: value.length });
    }
    return;
  }
  if (!isPlainObject(value)) {
    out.push({ kind: "fields", path, title, entries: [{ key: title, label: humanize(title), value: cellOf(value) }] });
    return;
  }
  const entries: Array<{ key: string; label: string; value: Cell }> = [];
  const nested: Array<[string, unknown]> = [];
  for (const [k, v] of Object.entries(value)) {
    const structured = Array.isArray(v) || isPlainObject(v);
    if (structured && depth < MAX_DEPTH) nested.push([k, v]);
    else entries.push({ key: k, label: humanize(k), value: cellOf(v) });
  }
  if (entries.length) out.push({ kind: "fields", path, title, entries });
  for (const [k, v] of nested) walk(v, `${path}/${k}`, humanize(k), depth + 1, out);
}

/** The blocks to render for a payload (empty for null or an empty object). */
export function describePayload(payload: unknown): PayloadBlock[] {
  if (payload === null || payload === undefined) return [];
  const out: PayloadBlock[] = [];
  walk(payload, "", "Details", 0, out);
  return out.filter((b) => b.kind !== "fields" || b.entries.length > 0);
}
