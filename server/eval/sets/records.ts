/**
 * Rows of an uploaded file (pure): CSV (RFC 4180) and JSON/JSONL records with their row numbers, snake_case and camelCase
 * field names, and each problem as a row error `{ row, field, message }` (schema issues, unstorable text).
 */
import type { z, ZodType } from "zod";
import { findUnstorable, toStorableText } from "../../core/text";

export type RowError = { row: number; field: string; message: string };
export type ImportFormatT = "json" | "jsonl" | "csv";
export type RawRecord = { row: number; data: Record<string, unknown> };
export const SNAKE: Record<string, string> = {
  expectedPoints: "expected_points",
  sourceTraceId: "source_trace_id",
  sampleId: "sample_id",
  traceId: "trace_id",
  latencyMs: "latency_ms",
};
export const CAMEL: Record<string, string> = Object.fromEntries(Object.entries(SNAKE).map(([c, s]) => [s, c]));
export const toSnake = (field: string) => SNAKE[field] ?? field;
/** Parses CSV text into rows of cells with the line each row starts on. */
export function parseCsv(text: string): { rows: Array<{ line: number; cells: string[] }>; error?: RowError } {
  const src = text.replace(/^\uFEFF/, "");
  const rows: Array<{ line: number; cells: string[] }> = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let i = 0;
  let afterQuote = false;
  while (i < src.length) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        afterQuote = true;
        i++;
        continue;
      }
      if (ch === "\n") line++;
      cell += ch;
      i++;
      continue;
    }
    if (ch === '"' && cell === "" && !afterQuote) {
      quoted = true;
      i++;
      continue;
    }
    if (ch === ",") {
      cells.push(cell);
      cell = "";
      afterQuote = false;
      i++;
      continue;
    }
    if (ch === "\r" && src[i + 1] === "\n") {
      i++;
      continue;
    }
    if (ch === "\n") {
      cells.push(cell);
      rows.push({ line: rowLine, cells });
      cells = [];
      cell = "";
      afterQuote = false;
      line++;
      rowLine = line;
      i++;
      continue;
    }
    if (afterQuote)
      return {
        rows,
        error: { row: rowLine, field: "file", message: `unexpected character after a closing quote on line ${line}` },
      };
    cell += ch;
    i++;
  }
  if (quoted) return { rows, error: { row: rowLine, field: "file", message: "a quoted field is not closed" } };
  if (cell !== "" || cells.length) {
    cells.push(cell);
    rows.push({ line: rowLine, cells });
  }
  return { rows: rows.filter((r) => !(r.cells.length === 1 && r.cells[0]!.trim() === "")) };
}

export function csvRecords(content: string, columns: readonly string[]): { records: RawRecord[]; errors: RowError[] } {
  const parsed = parseCsv(content);
  if (parsed.error) return { records: [], errors: [parsed.error] };
  const [header, ...body] = parsed.rows;
  if (!header)
    return { records: [], errors: [{ row: 1, field: "file", message: "the file is empty: a header row is required" }] };
  const names = header.cells.map((c) => c.trim());
  const errors: RowError[] = [];
  const known = new Set<string>([...columns, ...columns.map((c) => CAMEL[c] ?? c)]);
  names.forEach((n) => {
    if (!known.has(n))
      errors.push({ row: 1, field: n || "(empty)", message: `unknown column; expected some of ${columns.join(", ")}` });
  });
  if (new Set(names).size !== names.length)
    errors.push({ row: 1, field: "header", message: "a column is named twice" });
  if (errors.length) return { records: [], errors };
  const records: RawRecord[] = [];
  body.forEach((r, i) => {
    const row = i + 2;
    if (r.cells.length > names.length) {
      errors.push({ row, field: "row", message: `${r.cells.length} cells, the header has ${names.length}` });
      return;
    }
    const data: Record<string, unknown> = {};
    names.forEach((n, j) => {
      const v = r.cells[j];
      if (v !== undefined && v.trim() !== "") data[n] = unescapeFormula(v);
    });
    records.push({ row, data });
  });
  return { records, errors };
}

export function jsonRecords(content: string, format: "json" | "jsonl"): { records: RawRecord[]; errors: RowError[] } {
  const errors: RowError[] = [];
  const records: RawRecord[] = [];
  const push = (row: number, v: unknown) => {
    if (!v || typeof v !== "object" || Array.isArray(v))
      errors.push({ row, field: "row", message: "expected an object" });
    else records.push({ row, data: v as Record<string, unknown> });
  };
  if (format === "json") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(content.replace(/^\uFEFF/, ""));
    } catch (e) {
      return { records, errors: [{ row: 0, field: "file", message: `not valid JSON: ${(e as Error).message}` }] };
    }
    const list = Array.isArray(parsed)
      ? parsed
      : parsed && typeof parsed === "object"
        ? ((parsed as { samples?: unknown; answers?: unknown }).samples ?? (parsed as { answers?: unknown }).answers)
        : undefined;
    if (!Array.isArray(list))
      return {
        records,
        errors: [{ row: 0, field: "file", message: 'expected a JSON array (or { "samples": [...] })' }],
      };
    list.forEach((v, i) => push(i + 1, v));
  } else {
    content
      .replace(/^\uFEFF/, "")
      .split(/\r?\n/)
      .forEach((line, i) => {
        if (!line.trim()) return;
        try {
          push(i + 1, JSON.parse(line));
        } catch (e) {
          errors.push({ row: i + 1, field: "line", message: `not valid JSON: ${(e as Error).message}` });
        }
      });
  }
  return { records, errors };
}

export function splitRecords(format: ImportFormatT, content: string, columns: readonly string[]) {
  return format === "csv" ? csvRecords(content, columns) : jsonRecords(content, format);
}

export function camelize(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) out[CAMEL[k] ?? k] = v;
  return out;
}

export function issuesToRowErrors(row: number, issues: z.core.$ZodIssue[]): RowError[] {
  return issues.map((i) => {
    const [head, ...rest] = i.path;
    const field = [
      toSnake(String(head ?? "row")),
      ...rest.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)),
    ].join("");
    return { row, field, message: i.message };
  });
}

/** A decoded row's unstorable text (or too deep nesting) as a row error naming the field, e.g. `script[0].content`. */
export function unstorableRowError(row: number, data: Record<string, unknown>): RowError | null {
  const found = findUnstorable(data);
  if (!found) return null;
  const [head, ...rest] = found.path
    .split("/")
    .slice(1)
    .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
  const field = [toSnake(head ?? "row"), ...rest.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))].join("");
  return { row, field: toStorableText(field), message: found.message };
}

export function validate<T extends ZodType>(
  schema: T,
  row: number,
  data: unknown,
): { ok: true; value: z.output<T> } | { ok: false; errors: RowError[] } {
  const r = schema.safeParse(data);
  return r.success ? { ok: true, value: r.data } : { ok: false, errors: issuesToRowErrors(row, r.error.issues) };
}

const FORMULA_LIKE = /^'*[=+\-@\t\r]/;
const ESCAPED_FORMULA = /^'+[=+\-@\t\r]/;
export function escapeFormula(v: string): string {
  return FORMULA_LIKE.test(v) ? `'${v}` : v;
}
export function unescapeFormula(v: string): string {
  return ESCAPED_FORMULA.test(v) ? v.slice(1) : v;
}
