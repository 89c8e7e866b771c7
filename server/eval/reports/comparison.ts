/**
 * Comparing runs: two runs of any sets (each side read from the database, then THE comparison, compare.ts), or 2 to 8
 * runs of one set version (`run` repeated: comparison-many.ts).
 */
import type { z } from "zod";
import type { Db } from "../../db/client";
import { errors } from "../../core/errors";
import { compareRuns, pageOfQuestions } from "./compare";
import { compareInput } from "./compare-rows";
import { compareMany } from "./comparison-many";
import { CompareQuery } from "./schemas";

/** The comparison in either form: `run` (2 to 8 runs) or `run_a` + `run_b`; a query mixing or missing them is a 400. */
export async function compare(db: Db, query: z.input<typeof CompareQuery>) {
  const q = CompareQuery.parse(query);
  if (q.run !== undefined) {
    if (q.run_a !== undefined || q.run_b !== undefined || q.outcome !== undefined)
      throw invalidForm("run", "run (many runs) goes without run_a, run_b and outcome (the two-run form's)");
    return compareMany(db, { ...q, run: q.run });
  }
  if (q.run_a === undefined || q.run_b === undefined)
    throw invalidForm(
      q.run_a === undefined ? "run_a" : "run_b",
      "Give two runs as run_a and run_b, or 2 to 8 runs as run (run=R-1&run=R-2)",
    );
  if (q.changed !== undefined || q.failing_latest !== undefined)
    throw invalidForm("changed", "changed and failing_latest filter the many-run form (run=...&run=...) only");
  return compareTwo(db, { ...q, run_a: q.run_a, run_b: q.run_b });
}

/**
 * Two runs question by question. Every outcome is computed from light rows (the one outcome rule, compare.ts); the
 * outcome and text filters are applied here, on the server, and only the page's questions get their text, their
 * scenario and run A's Bad Case. `summary` and `badCases` always count the whole comparison.
 */
export async function compareTwo(
  db: Db,
  query: Omit<z.input<typeof CompareQuery>, "run_a" | "run_b"> & { run_a: string; run_b: string },
) {
  const q = CompareQuery.parse(query);
  const [a, b] = await Promise.all([compareInput(db, query.run_a), compareInput(db, query.run_b)]);
  const result = compareRuns(a, b);
  const keys = q.q ? await searchKeys(db, [a.id, b.id], q.q) : undefined;
  const { rows, page } = pageOfQuestions(result.questions, {
    outcome: q.outcome,
    keys,
    offset: q.offset,
    limit: q.limit,
  });
  // the loop's question after a fix: is each of run A's Bad Cases fixed in run B (by a human verdict)?
  const cases = await db.badCase.findMany({ where: { runId: a.id }, select: { id: true, status: true, itemId: true } });
  const caseOf = new Map(cases.map((c) => [c.itemId, c]));
  type CaseResult = "fixed" | "still_failing" | "not_judged" | "not_in_b";
  const caseResult = (row: (typeof rows)[number]): CaseResult =>
    !row.b ? "not_in_b" : row.b.human === "pass" ? "fixed" : row.b.human === "fail" ? "still_failing" : "not_judged";
  const badCases = { fixed: 0, stillFailing: 0, notJudged: 0, notInB: 0 };
  const COUNTER = {
    fixed: "fixed",
    still_failing: "stillFailing",
    not_judged: "notJudged",
    not_in_b: "notInB",
  } as const;
  for (const row of result.questions) if (row.a && caseOf.has(row.a.itemId)) badCases[COUNTER[caseResult(row)]]++;
  const text = await questionText(
    db,
    rows.flatMap((r) => [r.a?.itemId, r.b?.itemId].filter((x): x is string => !!x)),
  );
  const questions = rows.map((row) => {
    const shown = text.get(row.b?.itemId ?? "") ?? text.get(row.a?.itemId ?? "");
    const c = row.a ? caseOf.get(row.a.itemId) : undefined;
    return {
      key: row.key,
      question: shown?.question ?? "",
      classification: shown?.classification ?? "",
      a: row.a,
      b: row.b,
      outcome: row.outcome,
      machineOutcome: row.machineOutcome,
      badCase: c ? { id: c.id, status: c.status, result: caseResult(row) } : null,
    };
  });
  return { ...result, questions, page, badCases };
}

/** The sample keys of either run whose key is `needle` (case-insensitive) or whose question contains it. */
async function searchKeys(db: Db, runIds: string[], needle: string): Promise<Set<string>> {
  const rows = await db.$queryRaw<Array<{ key: string }>>`
    SELECT DISTINCT s."key" FROM "EvalRunItem" i JOIN "EvalSample" s ON s."id" = i."sampleId"
    WHERE i."runId" IN (${runIds[0]}, ${runIds[1]}) AND (lower(s."key") = lower(${needle}) OR strpos(lower(s."question"), lower(${needle})) > 0)`;
  return new Set(rows.map((r) => r.key));
}

/** The question and the sample's scenario of the given items: only those a page shows. */
async function questionText(db: Db, itemIds: string[]) {
  if (!itemIds.length) return new Map<string, { question: string; classification: string }>();
  const rows = await db.evalRunItem.findMany({
    where: { id: { in: itemIds } },
    select: { id: true, sample: { select: { question: true, classification: true } } },
  });
  return new Map(rows.map((r) => [r.id, { question: r.sample.question, classification: r.sample.classification }]));
}

/** A 400 REQUEST_INVALID for a query that mixes or misses the comparison's two forms. */
function invalidForm(field: string, message: string) {
  return errors.badRequest("REQUEST_INVALID", `The query is invalid: ${message}`, [
    { path: `query:/${field}`, message, code: "custom" },
  ]);
}
