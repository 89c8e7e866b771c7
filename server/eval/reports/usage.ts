import type { z } from "zod";
import type { Db } from "../../db/client";
import { parseInput } from "../../core/errors";
import { dayRangeOf } from "../../core/params";
import { UsageQuery } from "./schemas";
import { costOf, mergeTokens } from "../../core/prices";
import { modelPrices } from "../runs/prices";
import { tokensByDay } from "./cost";

// ---------------------------------------------------------------- usage

/**
 * Usage by UTC day and agent: runs created; items answered (answered or failed, by answeredAt); answering model
 * calls and tokens (prompt, completion); judging model calls and tokens (by suggestedAt). Totals over the range (the
 * one day-range rule, server/core/params.ts: the last 30 days by default, at most 366). Each day and the totals carry
 * their cost (server/core/prices.ts) with the price table as it is now.
 */
export async function usage(db: Db, query: z.input<typeof UsageQuery>) {
  const q = parseInput(UsageQuery, query);
  const { from, to, start, end } = dayRangeOf(q);
  const agent = q.agentId ?? null;
  type Num = bigint | number | null;
  const runs = await db.$queryRaw<Array<{ day: string; agentId: string; runs: Num }>>`
    SELECT to_char(r."createdAt", 'YYYY-MM-DD') AS "day", st."agentId", count(*) AS "runs"
    FROM "EvalRun" r JOIN "EvalSetVersion" v ON v."id" = r."setVersionId" JOIN "EvalSet" st ON st."id" = v."setId"
    WHERE r."createdAt" >= ${start} AND r."createdAt" < ${end} AND (${agent}::text IS NULL OR st."agentId" = ${agent}::text)
    GROUP BY 1, 2`;
  const answered = await db.$queryRaw<
    Array<{ day: string; agentId: string; items: Num; calls: Num; prompt: Num; completion: Num }>
  >`
    SELECT to_char(i."answeredAt", 'YYYY-MM-DD') AS "day", st."agentId", count(*) AS "items", sum(i."llmCalls") AS "calls",
      sum(i."promptTokens") AS "prompt", sum(i."completionTokens") AS "completion"
    FROM "EvalRunItem" i JOIN "EvalRun" r ON r."id" = i."runId" JOIN "EvalSetVersion" v ON v."id" = r."setVersionId" JOIN "EvalSet" st ON st."id" = v."setId"
    WHERE i."answeredAt" >= ${start} AND i."answeredAt" < ${end} AND i."status" IN ('answered', 'failed') AND (${agent}::text IS NULL OR st."agentId" = ${agent}::text)
    GROUP BY 1, 2`;
  const judged = await db.$queryRaw<Array<{ day: string; agentId: string; calls: Num; tokens: Num }>>`
    SELECT to_char(i."suggestedAt", 'YYYY-MM-DD') AS "day", st."agentId", sum(i."judgeCalls") AS "calls", sum(i."judgeTokens") AS "tokens"
    FROM "EvalRunItem" i JOIN "EvalRun" r ON r."id" = i."runId" JOIN "EvalSetVersion" v ON v."id" = r."setVersionId" JOIN "EvalSet" st ON st."id" = v."setId"
    WHERE i."suggestedAt" >= ${start} AND i."suggestedAt" < ${end} AND (${agent}::text IS NULL OR st."agentId" = ${agent}::text)
    GROUP BY 1, 2`;
  const [{ prices }, tokens] = await Promise.all([modelPrices(db), tokensByDay(db, start, end, agent)]);
  const n = (x: Num) => Number(x ?? 0);
  type Row = {
    day: string;
    agentId: string;
    runs: number;
    answeredItems: number;
    answering: { modelCalls: number; promptTokens: number; completionTokens: number; tokens: number };
    judging: { modelCalls: number; tokens: number };
  };
  const rows = new Map<string, Row>();
  const at = (day: string, agentId: string) => {
    const k = `${day}|${agentId}`;
    let r = rows.get(k);
    if (!r) {
      r = {
        day,
        agentId,
        runs: 0,
        answeredItems: 0,
        answering: { modelCalls: 0, promptTokens: 0, completionTokens: 0, tokens: 0 },
        judging: { modelCalls: 0, tokens: 0 },
      };
      rows.set(k, r);
    }
    return r;
  };
  for (const r of runs) at(r.day, r.agentId).runs += n(r.runs);
  for (const r of answered) {
    const x = at(r.day, r.agentId);
    x.answeredItems += n(r.items);
    x.answering.modelCalls += n(r.calls);
    x.answering.promptTokens += n(r.prompt);
    x.answering.completionTokens += n(r.completion);
    x.answering.tokens += n(r.prompt) + n(r.completion);
  }
  for (const r of judged) {
    const x = at(r.day, r.agentId);
    x.judging.modelCalls += n(r.calls);
    x.judging.tokens += n(r.tokens);
  }
  const agentIds = [...new Set([...rows.values()].map((r) => r.agentId))];
  const names = new Map(
    (await db.agent.findMany({ where: { id: { in: agentIds } }, select: { id: true, name: true } })).map((a) => [
      a.id,
      a.name,
    ]),
  );
  const days = [...rows.values()]
    .sort((a, b) => a.day.localeCompare(b.day) || a.agentId.localeCompare(b.agentId))
    .map((r) => ({
      ...r,
      agentName: names.get(r.agentId) ?? null,
      cost: costOf(tokens.get(`${r.day}|${r.agentId}`) ?? { answering: [], judging: [] }, prices),
    }));
  const all = [...tokens.values()];
  const totalCost = costOf(
    {
      answering: mergeTokens(...all.map((t) => t.answering)),
      judging: mergeTokens(...all.map((t) => t.judging)),
    },
    prices,
  );
  const totals = days.reduce(
    (t, r) => ({
      runs: t.runs + r.runs,
      answeredItems: t.answeredItems + r.answeredItems,
      answering: {
        modelCalls: t.answering.modelCalls + r.answering.modelCalls,
        promptTokens: t.answering.promptTokens + r.answering.promptTokens,
        completionTokens: t.answering.completionTokens + r.answering.completionTokens,
        tokens: t.answering.tokens + r.answering.tokens,
      },
      judging: { modelCalls: t.judging.modelCalls + r.judging.modelCalls, tokens: t.judging.tokens + r.judging.tokens },
    }),
    {
      runs: 0,
      answeredItems: 0,
      answering: { modelCalls: 0, promptTokens: 0, completionTokens: 0, tokens: 0 },
      judging: { modelCalls: 0, tokens: 0 },
    },
  );
  return { from, to, agentId: q.agentId ?? null, totals: { ...totals, cost: totalCost }, days };
}
