/**
 * How a structured answer payload (spec 2.5: e.g. a `goods_list`) is shown to people: lists of objects become
 * tables whose columns are the objects' fields, lists of plain values become chips, plain fields become a
 * definition list, nested objects become their own sections. Inside a table cell or a field, nested values are
 * shown the same way, small: objects as key/value lists, lists as chips, lists of objects as nested tables; past
 * three levels a cell says what is there ("4 fields") and the raw JSON, one click away in the view, has it. No cell
 * is ever raw JSON. Pure.
 */
export type Field = { key: string; label: string; value: Cell };
export type Cell =
  | { kind: "text"; text: string }
  | { kind: "number"; text: string }
  | { kind: "bool"; text: string }
  | { kind: "empty"; text: string }
  | { kind: "link"; text: string; href: string }
  | { kind: "image"; text: string; href: string }
  /** plain values (and anything else) as chips */
  | { kind: "list"; text: string; items: Cell[]; total: number }
  /** a nested object as a small key/value list */
  | { kind: "record"; text: string; entries: Field[]; total: number }
  /** a nested list of objects as a small table */
  | { kind: "records"; text: string; columns: string[]; rows: Array<Record<string, Cell>>; total: number }
  /** deeper than a cell shows: what it is and how big, the raw JSON has it */
  | { kind: "more"; text: string };

export type PayloadBlock =
  | { kind: "table"; path: string; title: string; columns: string[]; rows: Array<Record<string, Cell>>; total: number }
  | { kind: "fields"; path: string; title: string; entries: Field[] }
  | { kind: "values"; path: string; title: string; values: Cell[]; total: number };

export const MAX_ROWS = 200;
/** Nested values inside a cell: lists, fields and rows shown before "+N more" (the raw JSON has all). */
export const MAX_NESTED = 20;
const MAX_DEPTH = 3;
/** How deep a cell renders nested objects and lists before it says "N fields" instead. */
const MAX_CELL_DEPTH = 3;
const MAX_CELL = 300;
/** Fields people look for first in an item list. */
const PRIORITY = [
  "name",
  "title",
  "dish",
  "label",
  "id",
  "sku",
  "scene",
  "category",
  "price",
  "unit",
  "currency",
  "stock",
  "quantity",
  "score",
  "url",
  "image",
];

/** "goods_list" -> "Goods list", "priceCents" -> "Price cents". */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : key;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** A value for people, however nested: plain values as text, lists as chips, objects as key/value lists, lists of objects as small tables. */
export function cellOf(value: unknown, depth = 0): Cell {
  if (value === null || value === undefined || value === "") return { kind: "empty", text: "—" };
  if (typeof value === "number")
    return {
      kind: "number",
      text: Number.isInteger(value) ? String(value) : String(Math.round(value * 10_000) / 10_000),
    };
  if (typeof value === "boolean") return { kind: "bool", text: value ? "yes" : "no" };
  if (typeof value === "string") {
    if (/^https?:\/\/\S+$/i.test(value)) {
      return /\.(png|jpe?g|gif|webp|svg)(\?\S*)?$/i.test(value)
        ? { kind: "image", text: value, href: value }
        : { kind: "link", text: value, href: value };
    }
    return { kind: "text", text: value.length > MAX_CELL ? `${value.slice(0, MAX_CELL - 1)}…` : value };
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return { kind: "empty", text: "none" };
    if (depth >= MAX_CELL_DEPTH) return { kind: "more", text: `${plural(value.length, "item")} (in the raw JSON)` };
    const shown = value.slice(0, MAX_NESTED);
    if (shown.every(isPlainObject)) {
      const columns = columnsOf(shown);
      return {
        kind: "records",
        text: plural(value.length, "item"),
        columns,
        rows: shown.map((o) => Object.fromEntries(columns.map((c) => [c, cellOf(o[c], depth + 1)]))),
        total: value.length,
      };
    }
    const items = shown.map((v) => cellOf(v, depth + 1));
    return { kind: "list", text: items.map((c) => c.text).join(", "), items, total: value.length };
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return { kind: "empty", text: "—" };
    if (depth >= MAX_CELL_DEPTH) return { kind: "more", text: `${plural(keys.length, "field")} (in the raw JSON)` };
    const entries = keys
      .slice(0, MAX_NESTED)
      .map((k) => ({ key: k, label: humanize(k), value: cellOf(value[k], depth + 1) }));
    return {
      kind: "record",
      text: entries.map((e) => `${e.label}: ${e.value.text}`).join("; "),
      entries,
      total: keys.length,
    };
  }
  return { kind: "text", text: String(value) };
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
      out.push({
        kind: "values",
        path,
        title,
        values: value.slice(0, MAX_ROWS).map((v) => cellOf(v)),
        total: value.length,
      });
    }
    return;
  }
  if (!isPlainObject(value)) {
    out.push({ kind: "fields", path, title, entries: [{ key: title, label: humanize(title), value: cellOf(value) }] });
    return;
  }
  const entries: Field[] = [];
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
