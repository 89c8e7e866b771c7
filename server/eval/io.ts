import type { z, ZodType } from "zod";
import { findUnstorable, toStorableText } from "../core/text";
import { EVAL_LIMITS } from "./limits";
import { PastedAnswer, SampleInput, type SampleInputT } from "./schemas";

/**
 * Import and export of samples (pure). Formats:
 *   json  - an array of sample objects (or { "samples": [...] }); row = 1-based position in the array
 *   jsonl - one sample object per line, blank lines skipped; row = line number
 *   csv   - RFC 4180 (quotes, "" escapes, newlines inside quotes, optional UTF-8 BOM), a header row naming the
 *           columns key, question, expected_points, classification, script, assertions, source_trace_id;
 *           row = spreadsheet row (the header is row 1, the first sample row 2)
 * Columns/fields use the spec's snake_case names (camelCase accepted too). expected_points is a JSON array or a
 * `|`-separated string; script and assertions are JSON. Every problem is reported as { row, field, message };
 * the caller imports all rows or none. The request's own check (server/core/text.ts) saw the file as one string; a
 * `\u0000` escape or an unpaired surrogate escape becomes real text only when a row is decoded here, so every
 * decoded row passes the same check (`findUnstorable`) and such a value is a row error naming its field.
 */
export type RowError = { row: number; field: string; message: string };
export type ImportFormatT = "json" | "jsonl" | "csv";
type RawRecord = { row: number; data: Record<string, unknown> };

export const SAMPLE_COLUMNS = [
  "key",
  "question",
  "expected_points",
  "classification",
  "script",
  "assertions",
  "source_trace_id",
] as const;
export const ANSWER_COLUMNS = ["sample_id", "key", "answer", "payload", "trace_id", "latency_ms", "error"] as const;

const SNAKE: Record<string, string> = {
  expectedPoints: "expected_points",
  sourceTraceId: "source_trace_id",
  sampleId: "sample_id",
  traceId: "trace_id",
  latencyMs: "latency_ms",
};
const CAMEL: Record<string, string> = Object.fromEntries(Object.entries(SNAKE).map(([c, s]) => [s, c]));
const toSnake = (field: string) => SNAKE[field] ?? field;

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

function csvRecords(content: string, columns: readonly string[]): { records: RawRecord[]; errors: RowError[] } {
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

function jsonRecords(content: string, format: "json" | "jsonl"): { records: RawRecord[]; errors: RowError[] } {
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

function camelize(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) out[CAMEL[k] ?? k] = v;
  return out;
}

/** Decodes cells that travel as text (CSV) or as strings in JSON: points list, JSON columns. */
function decodeSampleFields(data: Record<string, unknown>, row: number, errors: RowError[]): Record<string, unknown> {
  const out = camelize(data);
  const points = out.expectedPoints;
  if (typeof points === "string") {
    const t = points.trim();
    if (t.startsWith("[")) {
      try {
        out.expectedPoints = JSON.parse(t);
      } catch (e) {
        errors.push({ row, field: "expected_points", message: `not a valid JSON array: ${(e as Error).message}` });
      }
    } else
      out.expectedPoints = t
        .split("|")
        .map((p) => p.trim())
        .filter(Boolean);
  }
  for (const f of ["script", "assertions"] as const) {
    const v = out[f];
    if (typeof v === "string") {
      try {
        out[f] = v.trim() ? JSON.parse(v) : null;
      } catch (e) {
        errors.push({ row, field: f, message: `not valid JSON: ${(e as Error).message}` });
      }
    }
  }
  for (const [k, v] of Object.entries(out))
    if (v === "" || v === null)
      out[k] = k === "script" || k === "assertions" || k === "sourceTraceId" ? null : undefined;
  return out;
}

function issuesToRowErrors(row: number, issues: z.core.$ZodIssue[]): RowError[] {
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
function unstorableRowError(row: number, data: Record<string, unknown>): RowError | null {
  const found = findUnstorable(data);
  if (!found) return null;
  const [head, ...rest] = found.path
    .split("/")
    .slice(1)
    .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
  const field = [toSnake(head ?? "row"), ...rest.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))].join("");
  return { row, field: toStorableText(field), message: found.message };
}

function validate<T extends ZodType>(
  schema: T,
  row: number,
  data: unknown,
): { ok: true; value: z.output<T> } | { ok: false; errors: RowError[] } {
  const r = schema.safeParse(data);
  return r.success ? { ok: true, value: r.data } : { ok: false, errors: issuesToRowErrors(row, r.error.issues) };
}

/** Parses and validates a sample file. `rows` is empty unless `errors` is. */
export function parseSampleFile(
  format: ImportFormatT,
  content: string,
): { rows: Array<SampleInputT & { row: number }>; errors: RowError[]; count: number } {
  const { records, errors } = splitRecords(format, content, SAMPLE_COLUMNS);
  const rows: Array<SampleInputT & { row: number }> = [];
  for (const rec of records) {
    const decodeErrors: RowError[] = [];
    const decoded = decodeSampleFields(rec.data, rec.row, decodeErrors);
    const unstorable = unstorableRowError(rec.row, decoded);
    if (unstorable) {
      errors.push(...decodeErrors, unstorable);
      continue;
    }
    const v = validate(SampleInput, rec.row, decoded);
    errors.push(...decodeErrors);
    // a cell that could not be decoded is reported once, not again by the schema
    if (v.ok) {
      if (!decodeErrors.length) rows.push({ ...v.value, row: rec.row });
    } else
      errors.push(
        ...v.errors.filter(
          (e) =>
            !decodeErrors.some(
              (d) => e.field === d.field || e.field.startsWith(`${d.field}[`) || e.field.startsWith(`${d.field}.`),
            ),
        ),
      );
  }
  const keys = new Map<string, number>();
  const traces = new Map<string, number>();
  for (const r of rows) {
    if (r.key) {
      const seen = keys.get(r.key);
      if (seen !== undefined)
        errors.push({ row: r.row, field: "key", message: `duplicate key "${r.key}" (first on row ${seen})` });
      else keys.set(r.key, r.row);
    }
    if (r.sourceTraceId) {
      const seen = traces.get(r.sourceTraceId);
      if (seen !== undefined)
        errors.push({
          row: r.row,
          field: "source_trace_id",
          message: `duplicate source_trace_id (first on row ${seen})`,
        });
      else traces.set(r.sourceTraceId, r.row);
    }
  }
  errors.sort((a, b) => a.row - b.row);
  return { rows: errors.length ? [] : rows, errors, count: records.length };
}

export type PastedRow = z.output<typeof PastedAnswer> & { row: number };

/** Parses pasted answers (rows or a file); each row names its sample by sample_id or key. */
export function parseAnswerRows(input: { answers?: unknown[]; format?: ImportFormatT; content?: string }): {
  rows: PastedRow[];
  errors: RowError[];
} {
  const errors: RowError[] = [];
  let records: RawRecord[] = [];
  if (input.content !== undefined) {
    const split = splitRecords(input.format ?? "json", input.content, ANSWER_COLUMNS);
    records = split.records;
    errors.push(...split.errors);
  } else {
    (input.answers ?? []).forEach((v, i) => {
      if (!v || typeof v !== "object" || Array.isArray(v))
        errors.push({ row: i + 1, field: "row", message: "expected an object" });
      else records.push({ row: i + 1, data: v as Record<string, unknown> });
    });
  }
  const rows: PastedRow[] = [];
  for (const rec of records) {
    const data = camelize(rec.data);
    if (typeof data.payload === "string") {
      try {
        data.payload = data.payload.trim() ? JSON.parse(data.payload) : null;
      } catch (e) {
        errors.push({ row: rec.row, field: "payload", message: `not valid JSON: ${(e as Error).message}` });
        continue;
      }
    }
    if (typeof data.latencyMs === "string") data.latencyMs = Number(data.latencyMs);
    const unstorable = unstorableRowError(rec.row, data);
    if (unstorable) {
      errors.push(unstorable);
      continue;
    }
    const v = validate(PastedAnswer, rec.row, data);
    if (!v.ok) {
      errors.push(...v.errors);
      continue;
    }
    if (!v.value.sampleId && !v.value.key) {
      errors.push({ row: rec.row, field: "sample_id", message: "each row needs sample_id or key" });
      continue;
    }
    rows.push({ ...v.value, row: rec.row });
  }
  return { rows, errors };
}

// ---------------------------------------------------------------- export

export type SampleDoc = {
  key: string;
  question: string;
  expected_points: string[];
  classification: string;
  script: unknown;
  assertions: unknown;
  source_trace_id: string | null;
};

/**
 * CSV formula injection (OWASP): a cell a spreadsheet would run as a formula (starting with = + - @, tab or CR) is
 * written with a leading apostrophe, and import removes exactly that apostrophe again. Cells that already start with
 * apostrophes before such a character get one more, so every value imports back unchanged.
 */
const FORMULA_LIKE = /^'*[=+\-@\t\r]/;
const ESCAPED_FORMULA = /^'+[=+\-@\t\r]/;
export function escapeFormula(v: string): string {
  return FORMULA_LIKE.test(v) ? `'${v}` : v;
}
export function unescapeFormula(v: string): string {
  return ESCAPED_FORMULA.test(v) ? v.slice(1) : v;
}

function csvCell(raw: string): string {
  const v = escapeFormula(raw);
  return /[",\r\n]/.test(v) || /^\s|\s$/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

/** Serialises samples; the output imports back unchanged (round trip). */
export function exportSamples(
  samples: SampleDoc[],
  format: ImportFormatT,
): { body: string; contentType: string; extension: string } {
  if (format === "json")
    return {
      body: `${JSON.stringify(samples, null, 2)}\n`,
      contentType: "application/json; charset=utf-8",
      extension: "json",
    };
  if (format === "jsonl")
    return {
      body: samples.map((s) => JSON.stringify(s)).join("\n") + (samples.length ? "\n" : ""),
      contentType: "application/x-ndjson; charset=utf-8",
      extension: "jsonl",
    };
  const lines = [SAMPLE_COLUMNS.join(",")];
  for (const s of samples) {
    lines.push(
      [
        s.key,
        s.question,
        JSON.stringify(s.expected_points),
        s.classification,
        s.script == null ? "" : JSON.stringify(s.script),
        s.assertions == null ? "" : JSON.stringify(s.assertions),
        s.source_trace_id ?? "",
      ]
        .map(csvCell)
        .join(","),
    );
  }
  return { body: `${lines.join("\r\n")}\r\n`, contentType: "text/csv; charset=utf-8", extension: "csv" };
}

export function importTooLarge(content: string): boolean {
  return Buffer.byteLength(content, "utf8") > EVAL_LIMITS.maxImportBytes;
}
