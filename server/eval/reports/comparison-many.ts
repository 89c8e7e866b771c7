/**
 * The many-run comparison read from the database: each run's light rows (compare-rows.ts), the check that they are
 * of one agent and one set version, THE grid (compare-many.ts), the filters, and the question text of the page only.
 */
import type { z } from "zod";
import type { Db } from "../../db/client";
import { errors } from "../../core/errors";
import { evalError } from "../errors";
import { compareManyRuns, filterMany, MIN_COMPARE_RUNS, type ManyRunInput, whyNotComparable } from "./compare-many";
import { compareInput } from "./compare-rows";
import type { CompareQuery } from "./schemas";

type Query = z.output<typeof CompareQuery> & { run: string[] };

export async function compareMany(db: Db, q: Query) {
  if (q.run.length < MIN_COMPARE_RUNS)
    throw errors.badRequest(
      "REQUEST_INVALID",
      `The query is invalid: compare at least ${MIN_COMPARE_RUNS} runs (run=R-1&run=R-2), got ${q.run.length}`,
      [{ path: "query:/run", message: `at least ${MIN_COMPARE_RUNS} runs`, code: "too_small" }],
    );
  // sequential: on the embedded database there is one connection anyway, and a missing run fails before the rest
  const runs: ManyRunInput[] = [];
  for (const ref of q.run) runs.push(await compareInput(db, ref));
  const twice = runs.find((r, i) => runs.findIndex((x) => x.id === r.id) !== i);
  if (twice)
    throw errors.badRequest("REQUEST_INVALID", `The query is invalid: run ${twice.shortId} is given twice`, [
      { path: "query:/run", message: `${twice.shortId} is given twice`, code: "custom" },
    ]);
  const why = whyNotComparable(runs);
  if (why) throw evalError("RUNS_NOT_COMPARABLE", why.message, why.details);
  const result = compareManyRuns(runs);
  const setVersionId = runs[0]!.setVersionId;
  const keys = q.q ? await searchKeys(db, setVersionId, q.q) : undefined;
  const { rows, page } = filterMany(result.questions, {
    changed: q.changed,
    failingLatest: q.failing_latest,
    keys,
    offset: q.offset,
    limit: q.limit,
  });
  const text = await questionText(
    db,
    setVersionId,
    rows.map((r) => r.key),
  );
  const first = runs[0]!;
  const set = await db.evalSet.findUniqueOrThrow({ where: { id: first.setId }, select: { id: true, name: true } });
  return {
    set: { ...set, version: first.setVersion },
    runs: result.runs,
    counts: result.counts,
    questions: rows.map((r) => ({
      key: r.key,
      question: text.get(r.key)?.question ?? "",
      classification: text.get(r.key)?.classification ?? "",
      cells: r.cells,
      changed: r.changed,
      failingLatest: r.failingLatest,
    })),
    page,
  };
}

/** The sample keys of the version whose key is `needle` (case-insensitive) or whose question contains it. */
async function searchKeys(db: Db, setVersionId: string, needle: string): Promise<Set<string>> {
  const rows = await db.$queryRaw<Array<{ key: string }>>`
    SELECT s."key" FROM "EvalSample" s WHERE s."setVersionId" = ${setVersionId}
    AND (lower(s."key") = lower(${needle}) OR strpos(lower(s."question"), lower(${needle})) > 0)`;
  return new Set(rows.map((r) => r.key));
}

/** The question and scenario of the page's questions, by sample key. */
async function questionText(db: Db, setVersionId: string, keys: string[]) {
  if (!keys.length) return new Map<string, { question: string; classification: string }>();
  const rows = await db.evalSample.findMany({
    where: { setVersionId, key: { in: keys } },
    select: { key: true, question: true, classification: true },
  });
  return new Map(rows.map((r) => [r.key, { question: r.question, classification: r.classification }]));
}
