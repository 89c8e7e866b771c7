import type { z } from "zod";
import type { Db } from "../../db/client";
import { parseInput } from "../../core/errors";
import { dayBounds } from "../../core/params";
import { requireAgent } from "../../agents/service";
import { notConfigured } from "./config";
import { DisagreementsQuery, ReplayInput, SHADOW_LIMITS, ShadowReportQuery } from "./schemas";
import { shadowTrace } from "./intent";

/** The candidate over the last `limit` online chat traces of the agent (cache hits included), a few at a time; numbers right away. */
export async function replayShadow(db: Db, agentId: string, input: z.input<typeof ReplayInput>) {
  const { limit } = ReplayInput.parse(input ?? {});
  await requireAgent(db, agentId);
  const config = await db.shadowConfig.findUnique({ where: { agentId }, select: { agentId: true } });
  if (!config) throw notConfigured();
  const traces = await db.trace.findMany({
    where: { agentId, source: "chat", status: { in: ["succeeded", "failed"] } },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true },
  });
  let ok = 0;
  let failed = 0;
  for (let i = 0; i < traces.length; i += SHADOW_LIMITS.replayConcurrency) {
    const batch = traces.slice(i, i + SHADOW_LIMITS.replayConcurrency);
    const results = await Promise.all(batch.map((t) => shadowTrace(db, t.id, "replay")));
    for (const r of results) r.status === "ok" ? ok++ : failed++;
  }
  return { replayed: traces.length, ok, failed, report: await shadowReport(db, agentId, {}) };
}

/** The report's and the disagreements' filter: the agent, the configured candidate's results, the days (UTC). */
async function resultsWhere(db: Db, agentId: string, q: z.output<typeof ShadowReportQuery>) {
  await requireAgent(db, agentId);
  const config = await db.shadowConfig.findUnique({ where: { agentId }, select: { candidateKey: true } });
  const { start, end } = dayBounds(q);
  return {
    agentId,
    candidateKey: config?.candidateKey ?? "",
    ...(start || end ? { traceStartedAt: { ...(start ? { gte: start } : {}), ...(end ? { lt: end } : {}) } } : {}),
  };
}

const disagreementSelect = {
  traceId: true,
  message: true,
  liveIntent: true,
  candidateIntent: true,
  traceStartedAt: true,
  source: true,
  candidateTraceId: true,
} as const;
type DisagreementRow = {
  traceId: string;
  message: string;
  liveIntent: string | null;
  candidateIntent: string | null;
  traceStartedAt: Date;
  source: string;
  candidateTraceId: string | null;
};
const disagreementOut = (r: DisagreementRow) => ({
  traceId: r.traceId,
  message: r.message,
  live: r.liveIntent ?? "",
  candidate: r.candidateIntent ?? "",
  at: r.traceStartedAt,
  source: r.source,
  candidateTraceId: r.candidateTraceId,
});

/** The disagreements of the configured candidate, newest first, a page at a time (cursor: the last row's trace id). */
export async function listDisagreements(db: Db, agentId: string, query: z.input<typeof DisagreementsQuery>) {
  const q = parseInput(DisagreementsQuery, query ?? {});
  const where = { ...(await resultsWhere(db, agentId, q)), agree: false };
  const rows = await db.shadowResult.findMany({
    where,
    orderBy: [{ traceStartedAt: "desc" }, { traceId: "desc" }],
    take: q.limit + 1,
    ...(q.cursor ? { cursor: { traceId: q.cursor }, skip: 1 } : {}),
    select: disagreementSelect,
  });
  const page = rows.slice(0, q.limit);
  return {
    items: page.map(disagreementOut),
    nextCursor: rows.length > q.limit ? page.at(-1)!.traceId : null,
    total: await db.shadowResult.count({ where }),
  };
}

/**
 * The configured candidate's results, aggregated in the database (no cap on how many): agreement, per day (UTC), the
 * confusion matrix, per-intent counts, the first page of disagreements (the rest: listDisagreements) and the latest
 * failures.
 */
export async function shadowReport(db: Db, agentId: string, query: z.input<typeof ShadowReportQuery>) {
  const q = parseInput(ShadowReportQuery, query ?? {});
  const where = await resultsWhere(db, agentId, q);
  const [results, failed, missingLive, cells, days, first, failures] = await Promise.all([
    db.shadowResult.count({ where }),
    db.shadowResult.count({ where: { ...where, status: "failed" } }),
    db.shadowResult.count({ where: { ...where, status: "ok", liveIntent: null } }),
    db.shadowResult.groupBy({
      by: ["liveIntent", "candidateIntent", "agree"],
      where: { ...where, agree: { not: null } },
      _count: { _all: true },
    }),
    db.$queryRaw<Array<{ day: string; total: bigint | number; agreed: bigint | number }>>`
      SELECT to_char("traceStartedAt", 'YYYY-MM-DD') AS "day", COUNT(*) AS "total", COUNT(*) FILTER (WHERE "agree") AS "agreed"
      FROM "ShadowResult"
      WHERE "agentId" = ${where.agentId} AND "candidateKey" = ${where.candidateKey} AND "agree" IS NOT NULL
        AND (${where.traceStartedAt?.gte ?? null}::timestamp IS NULL OR "traceStartedAt" >= ${where.traceStartedAt?.gte ?? null}::timestamp)
        AND (${where.traceStartedAt?.lt ?? null}::timestamp IS NULL OR "traceStartedAt" < ${where.traceStartedAt?.lt ?? null}::timestamp)
      GROUP BY 1 ORDER BY 1`,
    listDisagreements(db, agentId, q),
    db.shadowResult.findMany({
      where: { ...where, status: "failed" },
      orderBy: [{ traceStartedAt: "desc" }, { traceId: "desc" }],
      take: SHADOW_LIMITS.reportFailures,
      select: { traceId: true, error: true, traceStartedAt: true },
    }),
  ]);
  const rate = (n: number, d: number) => (d ? Math.round((n / d) * 10000) / 10000 : null);
  const matrix = new Map<string, { live: string; candidate: string; count: number }>();
  const intents = new Map<string, { live: number; candidate: number }>();
  let compared = 0;
  let agreed = 0;
  for (const c of cells) {
    const n = c._count._all;
    compared += n;
    if (c.agree) agreed += n;
    const live = c.liveIntent ?? "";
    const candidate = c.candidateIntent ?? "";
    const key = JSON.stringify([live, candidate]);
    matrix.set(key, { live, candidate, count: (matrix.get(key)?.count ?? 0) + n });
    for (const [which, intent] of [
      ["live", live],
      ["candidate", candidate],
    ] as const) {
      const i = intents.get(intent) ?? { live: 0, candidate: 0 };
      i[which] += n;
      intents.set(intent, i);
    }
  }
  return {
    agentId,
    results,
    compared,
    agreed,
    agreement: rate(agreed, compared),
    failed,
    missingLive,
    perDay: days.map((d) => ({
      day: d.day,
      total: Number(d.total),
      agreed: Number(d.agreed),
      agreement: rate(Number(d.agreed), Number(d.total)),
    })),
    matrix: [...matrix.values()],
    intents: [...intents.entries()]
      .map(([intent, c]) => ({ intent, ...c }))
      .sort((a, b) => b.live + b.candidate - (a.live + a.candidate)),
    disagreements: first.items,
    disagreementsNextCursor: first.nextCursor,
    failures: failures.map((r) => ({ traceId: r.traceId, error: r.error ?? "", at: r.traceStartedAt })),
  };
}
