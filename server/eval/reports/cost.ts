import { Prisma } from "../../db/generated/client";
import type { Db } from "../../db/client";
import { costOf, type ModelPrice, type ModelTokens } from "../../core/prices";

/**
 * Tokens by model as stored on items (answerUsage, judgeUsage: server/eval/runs/answer-item.ts, suggestions/judging.ts)
 * and their cost (THE rule: server/core/prices.ts `costOf`). Items stored before tokens were recorded by model count
 * under the model `unrecorded` (their judging tokens as prompt tokens: the split was not kept).
 */
type Side = "answering" | "judging";
type Num = bigint | number | null;
type TokenRow = { side: Side; model: string; prompt: Num; completion: Num };

/**
 * The per-model token rows of the items `from` ... `where` (a condition on the item `i`) on the given sides, grouped
 * by side, model and `extra.group` (columns 3, 4, ... of `extra.select`).
 */
function tokenRows<G extends Record<string, unknown>>(
  db: Db,
  sides: readonly Side[],
  from: Prisma.Sql,
  where: Prisma.Sql,
  extra: { select: Prisma.Sql; group: Prisma.Sql } = { select: Prisma.empty, group: Prisma.empty },
) {
  const parts: Prisma.Sql[] = [];
  if (sides.includes("answering"))
    parts.push(
      Prisma.sql`SELECT 'answering' AS "side", u->>'model' AS "model", sum((u->>'promptTokens')::bigint) AS "prompt",
        sum((u->>'completionTokens')::bigint) AS "completion" ${extra.select}
      FROM ${from} CROSS JOIN LATERAL jsonb_array_elements(i."answerUsage") u
      WHERE ${where} AND jsonb_typeof(i."answerUsage") = 'array' GROUP BY 1, 2 ${extra.group}`,
      Prisma.sql`SELECT 'answering', 'unrecorded', sum(i."promptTokens"), sum(i."completionTokens") ${extra.select}
      FROM ${from} WHERE ${where} AND i."answerUsage" IS NULL AND i."promptTokens" + i."completionTokens" > 0
      GROUP BY 1, 2 ${extra.group}`,
    );
  if (sides.includes("judging"))
    parts.push(
      Prisma.sql`SELECT 'judging' AS "side", u->>'model' AS "model", sum((u->>'promptTokens')::bigint) AS "prompt",
        sum((u->>'completionTokens')::bigint) AS "completion" ${extra.select}
      FROM ${from} CROSS JOIN LATERAL jsonb_array_elements(i."judgeUsage") u
      WHERE ${where} AND jsonb_typeof(i."judgeUsage") = 'array' GROUP BY 1, 2 ${extra.group}`,
      Prisma.sql`SELECT 'judging', 'unrecorded', sum(i."judgeTokens"), 0 ${extra.select}
      FROM ${from} WHERE ${where} AND i."judgeUsage" IS NULL AND i."judgeTokens" > 0 GROUP BY 1, 2 ${extra.group}`,
    );
  return db.$queryRaw<Array<TokenRow & G>>(Prisma.join(parts, " UNION ALL "));
}

const toTokens = (r: TokenRow): ModelTokens => ({
  model: r.model,
  promptTokens: Number(r.prompt ?? 0),
  completionTokens: Number(r.completion ?? 0),
});

export type SideTokens = { answering: ModelTokens[]; judging: ModelTokens[] };
const emptySides = (): SideTokens => ({ answering: [], judging: [] });

/** A run's tokens by model, answering and judging apart. */
export async function runTokens(db: Db, runId: string): Promise<SideTokens> {
  const rows = await tokenRows(
    db,
    ["answering", "judging"],
    Prisma.sql`"EvalRunItem" i`,
    Prisma.sql`i."runId" = ${runId}`,
  );
  const out = emptySides();
  for (const r of rows) out[r.side].push(toTokens(r));
  return out;
}

/** A run's cost with the given price table. */
export async function runCost(db: Db, runId: string, prices: readonly ModelPrice[]) {
  return costOf(await runTokens(db, runId), prices);
}

/**
 * Tokens by model per UTC day and agent in [start, end): answering by answer day (answered or failed items), judging by
 * suggestion day, like usage's token counts (server/eval/reports/usage.ts).
 */
export async function tokensByDay(db: Db, start: Date, end: Date, agentId: string | null) {
  const from = Prisma.sql`"EvalRunItem" i JOIN "EvalRun" r ON r."id" = i."runId" JOIN "EvalSetVersion" v ON v."id" = r."setVersionId" JOIN "EvalSet" st ON st."id" = v."setId"`;
  const agent = Prisma.sql`(${agentId}::text IS NULL OR st."agentId" = ${agentId}::text)`;
  const out = new Map<string, SideTokens>();
  for (const side of ["answering", "judging"] as const) {
    const where =
      side === "answering"
        ? Prisma.sql`i."answeredAt" >= ${start} AND i."answeredAt" < ${end} AND i."status" IN ('answered', 'failed')`
        : Prisma.sql`i."suggestedAt" >= ${start} AND i."suggestedAt" < ${end}`;
    const at = side === "answering" ? Prisma.sql`i."answeredAt"` : Prisma.sql`i."suggestedAt"`;
    const rows = await tokenRows<{ day: string; agentId: string }>(
      db,
      [side],
      from,
      Prisma.sql`${where} AND ${agent}`,
      {
        select: Prisma.sql`, to_char(${at}, 'YYYY-MM-DD') AS "day", st."agentId"`,
        group: Prisma.sql`, 5, 6`,
      },
    );
    for (const r of rows) {
      const k = `${r.day}|${r.agentId}`;
      const x = out.get(k) ?? emptySides();
      x[r.side].push(toTokens(r));
      out.set(k, x);
    }
  }
  return out;
}
