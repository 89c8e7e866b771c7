import type { Db } from "../../db/client";
import { SUGGESTION_JSON } from "../suggestions/suggest";

/**
 * Consistency of a run that answered each question several times (`repeats`, 1-5): the questions whose machine
 * suggestions differ between the answers. People judge the first answer only and the gate counts only verdicts, so
 * this never changes a pass rate or a gate; it says how far one answer per question can be trusted.
 */
type SV = "pass" | "fail" | "unknown" | null;

/** The one rule (pure): a question is unstable when its answers' suggestions are not all the same. */
export function consistencyOf(repeats: number, rows: Array<{ key: string; suggestions: SV[] }>) {
  const compared = rows.filter((r) => r.suggestions.length > 1);
  const unstable = compared
    .filter((r) => new Set(r.suggestions).size > 1)
    .map((r) => {
      const passes = r.suggestions.filter((s) => s === "pass").length;
      return {
        key: r.key,
        suggestions: r.suggestions,
        text: `unstable: pass ${passes} of ${r.suggestions.length}`,
      };
    });
  return {
    repeats,
    compared: compared.length,
    unstable,
    unstableShare: compared.length ? Math.round((unstable.length / compared.length) * 10000) / 10000 : null,
  };
}

/** The run's consistency (one query, only for runs with repeats > 1). */
export async function runConsistency(db: Db, run: { id: string; repeats: number }) {
  if (run.repeats <= 1) return consistencyOf(run.repeats, []);
  const rows = await db.$queryRaw<Array<{ key: string; sv: SV; others: unknown }>>`
    SELECT s."key", i."suggestion"->>${SUGGESTION_JSON.verdict}::text AS "sv",
      jsonb_path_query_array(i."repeatAnswers", ${`$[*].suggestion.${SUGGESTION_JSON.verdict}`}::jsonpath) AS "others"
    FROM "EvalRunItem" i JOIN "EvalSample" s ON s."id" = i."sampleId"
    WHERE i."runId" = ${run.id} AND i."repeatAnswers" IS NOT NULL
    ORDER BY s."position", s."key"`;
  return consistencyOf(
    run.repeats,
    rows.map((r) => ({ key: r.key, suggestions: [r.sv, ...((Array.isArray(r.others) ? r.others : []) as SV[])] })),
  );
}
