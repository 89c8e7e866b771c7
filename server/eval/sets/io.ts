import { EVAL_LIMITS } from "../limits";
import { SampleInput, type SampleInputT } from "./schemas";
import {
  type ImportFormatT,
  type RowError,
  camelize,
  splitRecords,
  unstorableRowError,
  validate,
  escapeFormula,
} from "./records";

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

export const SAMPLE_COLUMNS = [
  "key",
  "question",
  "expected_points",
  "classification",
  "script",
  "assertions",
  "source_trace_id",
] as const;

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
