/** Pasted answers as rows (pure): from a JSON array or a file, each row naming its sample by sample_id or key. */
import type { z } from "zod";
import { PastedAnswer } from "./schemas";
import {
  type ImportFormatT,
  type RawRecord,
  type RowError,
  camelize,
  splitRecords,
  unstorableRowError,
  validate,
} from "../sets/records";

export const ANSWER_COLUMNS = ["sample_id", "key", "answer", "payload", "trace_id", "latency_ms", "error"] as const;
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
