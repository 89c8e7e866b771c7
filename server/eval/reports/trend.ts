/**
 * A set's human-confirmed pass rate over time (`GET /api/eval/sets/{id}/trend`): every run of the set is a point
 * (pass / judged with its 95 % Wilson interval and n; unjudged questions are not in n, a run without a verdict has
 * a null rate), grouped into one series per set version and tier (only runs of one version and tier ask the same
 * questions the same way), oldest first, each with the agent version it answered with. One grouped query.
 */
import type { Db } from "../../db/client";
import { errors } from "../../core/errors";
import type { Tier } from "../runs/schemas";
import { roundedInterval, wilson } from "./statistics";

type Row = {
  runId: string;
  shortId: string;
  createdAt: Date;
  status: string;
  mode: string;
  tier: Tier;
  setVersion: number;
  workflowVersion: number;
  questions: number;
  pass: number;
  n: number;
};

export type TrendPoint = Omit<Row, "tier" | "setVersion" | "createdAt"> & {
  createdAt: string;
  rate: number | null;
  interval: { low: number; high: number } | null;
};

/** The series of trend rows (pure): by set version then tier, each oldest first. */
export function trendSeries(rows: Row[]) {
  const sorted = [...rows].sort(
    (x, y) =>
      x.setVersion - y.setVersion ||
      x.tier.localeCompare(y.tier) ||
      x.createdAt.getTime() - y.createdAt.getTime() ||
      x.runId.localeCompare(y.runId),
  );
  const series: Array<{ setVersion: number; tier: Tier; points: TrendPoint[] }> = [];
  for (const r of sorted) {
    let s = series.at(-1);
    if (!s || s.setVersion !== r.setVersion || s.tier !== r.tier) {
      s = { setVersion: r.setVersion, tier: r.tier, points: [] };
      series.push(s);
    }
    const { tier: _t, setVersion: _v, ...point } = r;
    s.points.push({
      ...point,
      createdAt: r.createdAt.toISOString(),
      rate: r.n === 0 ? null : Math.round((r.pass / r.n) * 10000) / 10000,
      interval: roundedInterval(wilson(r.pass, r.n)),
    });
  }
  return series;
}

export async function setTrend(db: Db, setId: string) {
  const set = await db.evalSet.findUnique({
    where: { id: setId },
    select: { id: true, name: true, kind: true, agentId: true },
  });
  if (!set) throw errors.notFound(`Evaluation set ${setId}`);
  const rows = await db.$queryRaw<Row[]>`
    SELECT r."id" AS "runId", r."shortId", r."createdAt", r."status"::text AS "status", r."mode"::text AS "mode",
      r."tier"::text AS "tier", v."version" AS "setVersion", w."version" AS "workflowVersion",
      count(i."id")::int AS "questions",
      (count(*) FILTER (WHERE i."verdict" = 'pass'))::int AS "pass",
      (count(*) FILTER (WHERE i."verdict" IS NOT NULL))::int AS "n"
    FROM "EvalRun" r
    JOIN "EvalSetVersion" v ON v."id" = r."setVersionId"
    JOIN "WorkflowVersion" w ON w."id" = r."workflowVersionId"
    LEFT JOIN "EvalRunItem" i ON i."runId" = r."id"
    WHERE v."setId" = ${setId}
    GROUP BY r."id", v."version", w."version"`;
  const series = trendSeries(rows);
  return { set, series, runs: rows.length };
}
