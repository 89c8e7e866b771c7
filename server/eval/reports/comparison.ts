/** Comparing two runs of one set: each side read from the database, then THE comparison (compare.ts). */
import type { z } from "zod";
import type { Db } from "../../db/client";
import { compareRuns, pageOfQuestions, type CompareRunInput } from "./compare";
import { CompareQuery } from "./schemas";
import { SUGGESTION_JSON } from "../suggestions/suggest";
import { resolveRun } from "../runs/run-rows";

async function compareInput(db: Db, idOrShort: string): Promise<CompareRunInput> {
  const run = await resolveRun(db, idOrShort);
  const rows = await db.$queryRaw<
    Array<{ itemId: string; key: string; verdict: "pass" | "fail" | null; sv: "pass" | "fail" | "unknown" | null }>
  >`
    SELECT i."id" AS "itemId", s."key", i."verdict"::text AS "verdict", i."suggestion"->>${SUGGESTION_JSON.verdict}::text AS "sv"
    FROM "EvalRunItem" i JOIN "EvalSample" s ON s."id" = i."sampleId" WHERE i."runId" = ${run.id} ORDER BY s."position", s."key"`;
  return {
    id: run.id,
    shortId: run.shortId,
    setId: run.setVersion.set.id,
    setVersionId: run.setVersionId,
    setVersion: run.setVersion.version,
    tier: run.tier,
    mode: run.mode,
    agentId: run.setVersion.set.agentId,
    workflowVersion: run.workflowVersion.version,
    environment: run.environment,
    items: rows.map((r) => ({ itemId: r.itemId, key: r.key, human: r.verdict, machine: r.sv })),
  };
}

/**
 * Two runs question by question. Every outcome is computed from light rows (the one outcome rule, compare.ts); the
 * outcome and text filters are applied here, on the server, and only the page's questions get their text, their
 * scenario and run A's Bad Case. `summary` and `badCases` always count the whole comparison.
 */
export async function compare(db: Db, query: z.input<typeof CompareQuery>) {
  const q = CompareQuery.parse(query);
  const [a, b] = await Promise.all([compareInput(db, q.run_a), compareInput(db, q.run_b)]);
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
