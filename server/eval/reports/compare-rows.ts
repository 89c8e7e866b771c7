/** Reading one run of a comparison: the run's light rows (key, verdict, suggestion), no question text. */
import type { Db } from "../../db/client";
import type { ManyRunInput } from "./compare-many";
import { SUGGESTION_JSON } from "../suggestions/suggest";
import { resolveRun } from "../runs/run-rows";

export async function compareInput(db: Db, idOrShort: string): Promise<ManyRunInput> {
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
    createdAt: run.createdAt,
    status: run.status,
    items: rows.map((r) => ({ itemId: r.itemId, key: r.key, human: r.verdict, machine: r.sv })),
  };
}
