import type { Db } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { errors } from "../../core/errors";
import { runJudgeRef } from "../suggestions/judge-agent";
import { metrics } from "../../telemetry/metrics";
import { emitGateIfDecided, emitWebhookEvent } from "../../webhooks/emit";

/** Shared persistence helpers for runs and items (no business rules beyond the run state transitions). */
type Tx = Db | Prisma.TransactionClient;

export const runSelect = {
  id: true,
  shortId: true,
  status: true,
  mode: true,
  tier: true,
  environment: true,
  concurrency: true,
  repeats: true,
  gateThreshold: true,
  reviewsPerItem: true,
  minReviewerKappa: true,
  auditRate: true,
  maxAuditOverturn: true,
  judge: true,
  setVersionId: true,
  workflowVersionId: true,
  rerunOfId: true,
  error: true,
  createdById: true,
  createdAt: true,
  startedAt: true,
  answeredAt: true,
  completedAt: true,
  setVersion: {
    select: {
      version: true,
      assertions: true,
      set: {
        select: {
          id: true,
          name: true,
          kind: true,
          gateThreshold: true,
          reviewsPerItem: true,
          agentId: true,
          agent: { select: { name: true } },
        },
      },
    },
  },
  workflowVersion: { select: { version: true } },
} as const;
export type RunRow = Prisma.EvalRunGetPayload<{ select: typeof runSelect }>;

/** Runs are addressed by internal id or short Run ID (R-7K2F9, case-insensitive): the unique key to find one by. */
export const runKey = (idOrShort: string) =>
  /^r-[0-9a-z]{5}$/i.test(idOrShort) ? { shortId: idOrShort.toUpperCase() } : { id: idOrShort };

/** The run with what most reads show of it (`runSelect`); 404 when there is none. */
export async function resolveRun(db: Tx, idOrShort: string): Promise<RunRow> {
  const run = await db.evalRun.findUnique({ where: runKey(idOrShort), select: runSelect });
  if (!run) throw errors.notFound(`Run ${idOrShort}`);
  return run;
}

export type Progress = {
  total: number;
  pending: number;
  answering: number;
  answered: number;
  failed: number;
  cancelled: number;
  done: number;
  suggested: number;
  judged: number;
  /** verdicts adopted from machine suggestions and not changed by a person since */
  adopted: number;
  /** verdicts typed by people (judged - adopted; an adopted verdict a person changed counts here) */
  human: number;
  /** items whose verdict is fail, and those of them without a Bad Case yet */
  fails: number;
  unfiledFails: number;
};

/** The progress of one run (progressOfRuns for one). */
export async function progressOf(db: Tx, runId: string): Promise<Progress> {
  return (await progressOfRuns(db, [runId])).get(runId)!;
}

/** The progress of several runs in one grouped query (a list of runs costs one round trip); every id gets an entry. */
export async function progressOfRuns(db: Tx, runIds: string[]): Promise<Map<string, Progress>> {
  const rows = runIds.length
    ? await db.$queryRaw<Array<Record<string, bigint | number | string>>>`
    SELECT i."runId" AS "runId", count(*) AS total,
      count(*) FILTER (WHERE "status" = 'pending') AS pending,
      count(*) FILTER (WHERE "status" = 'answering') AS answering,
      count(*) FILTER (WHERE "status" = 'answered') AS answered,
      count(*) FILTER (WHERE "status" = 'failed') AS failed,
      count(*) FILTER (WHERE "status" = 'cancelled') AS cancelled,
      count(*) FILTER (WHERE "suggestion" IS NOT NULL) AS suggested,
      count(*) FILTER (WHERE "verdict" IS NOT NULL) AS judged,
      count(*) FILTER (WHERE "verdict" IS NOT NULL AND "verdictSource" = 'adopted') AS adopted,
      count(*) FILTER (WHERE "verdict" = 'fail') AS fails,
      count(*) FILTER (WHERE "verdict" = 'fail' AND NOT EXISTS (SELECT 1 FROM "BadCase" b WHERE b."itemId" = i."id")) AS unfiled
    FROM "EvalRunItem" i WHERE i."runId" = ANY(${runIds}::text[])
    GROUP BY i."runId"`
    : [];
  const byRun = new Map(rows.map((r) => [String(r.runId), r]));
  return new Map(
    runIds.map((id) => {
      const r = byRun.get(id) ?? {};
      const n = (k: string) => Number(r[k] ?? 0);
      return [
        id,
        {
          total: n("total"),
          pending: n("pending"),
          answering: n("answering"),
          answered: n("answered"),
          failed: n("failed"),
          cancelled: n("cancelled"),
          done: n("answered") + n("failed") + n("cancelled"),
          suggested: n("suggested"),
          judged: n("judged"),
          adopted: n("adopted"),
          human: n("judged") - n("adopted"),
          fails: n("fails"),
          unfiledFails: n("unfiled"),
        },
      ];
    }),
  );
}

/** A run as every face returns it; `createdByLabel` is what people read for createdById (auth actorLabels). */
export function runOut(r: RunRow, progress: Progress, createdByLabel: string | null = null) {
  const set = r.setVersion.set;
  return {
    id: r.id,
    shortId: r.shortId,
    status: r.status,
    mode: r.mode,
    tier: r.tier,
    environment: r.environment,
    concurrency: r.concurrency,
    repeats: r.repeats,
    setId: set.id,
    setName: set.name,
    setKind: set.kind,
    gateThreshold: r.gateThreshold,
    setGateThreshold: set.gateThreshold,
    reviewsPerItem: r.reviewsPerItem,
    minReviewerKappa: r.minReviewerKappa,
    setReviewsPerItem: set.reviewsPerItem,
    auditRate: r.auditRate,
    maxAuditOverturn: r.maxAuditOverturn,
    judge: runJudgeRef(r.judge),
    setVersionId: r.setVersionId,
    setVersion: r.setVersion.version,
    agentId: set.agentId,
    agentName: set.agent.name,
    workflowVersionId: r.workflowVersionId,
    workflowVersion: r.workflowVersion.version,
    rerunOfId: r.rerunOfId,
    error: r.error,
    createdById: r.createdById,
    createdByLabel: createdByLabel ?? r.createdById,
    createdAt: r.createdAt,
    startedAt: r.startedAt,
    answeredAt: r.answeredAt,
    completedAt: r.completedAt,
    progress,
  };
}
export type RunOutT = ReturnType<typeof runOut>;

/**
 * A client outside a transaction: the webhooks' background emits need one that outlives the caller's transaction.
 * Not `$transaction`: Prisma's interactive transaction client has it too (measured: `$transaction` in tx is true,
 * `$connect` false), and emits through a committed transaction failed with "Transaction already closed".
 */
export const isRoot = (db: Tx): db is Db => "$connect" in db;

/**
 * `run.answered` / `run.completed` for a run that just moved (a transaction's caller emits after its commit), and the
 * gate check behind `gate.decided`; all in the background (server/webhooks/emit.ts).
 */
export function emitRunEvent(db: Db, type: "run.answered" | "run.completed", runId: string): void {
  emitWebhookEvent(db, type, async () => {
    const r = await db.evalRun.findUnique({
      where: { id: runId },
      select: {
        id: true,
        shortId: true,
        status: true,
        mode: true,
        tier: true,
        answeredAt: true,
        completedAt: true,
        setVersionId: true,
        workflowVersionId: true,
        setVersion: { select: { version: true, set: { select: { id: true, name: true, agentId: true } } } },
      },
    });
    if (!r) return null;
    const { setVersion, ...run } = r;
    return {
      runId: run.id,
      ...run,
      setId: setVersion.set.id,
      setName: setVersion.set.name,
      setVersion: setVersion.version,
      agentId: setVersion.set.agentId,
    };
  });
  emitGateIfDecided(db, runId);
}

/** answering -> awaiting_review once no item is pending or answering. Returns true when it moved. */
export async function settleAnswering(db: Tx, runId: string): Promise<boolean> {
  // called after every answered item: whether one is open, not how many (a count per item read the whole run's open
  // items each time, quadratic in the run's size)
  const open = await db.evalRunItem.findFirst({
    where: { runId, status: { in: ["pending", "answering"] } },
    select: { id: true },
  });
  if (open) return false;
  const answeredAt = new Date();
  const moved = await db.evalRun.updateMany({
    where: { id: runId, status: "answering" },
    data: { status: "awaiting_review", answeredAt },
  });
  if (moved.count) {
    const run = await db.evalRun.findUnique({ where: { id: runId }, select: { startedAt: true } });
    if (run?.startedAt) metrics().runDuration.observe((answeredAt.getTime() - run.startedAt.getTime()) / 1000);
    if (isRoot(db)) emitRunEvent(db, "run.answered", runId);
    await maybeComplete(db, runId);
  }
  return moved.count > 0;
}

/**
 * awaiting_review -> completed once every item has a verdict (cancelled items never do). Called after every verdict
 * change, so it is also where `gate.decided` is checked (in the background).
 */
export async function maybeComplete(db: Tx, runId: string): Promise<boolean> {
  if (isRoot(db)) emitGateIfDecided(db, runId);
  const open = await db.evalRunItem.findFirst({ where: { runId, verdict: null }, select: { id: true } });
  if (open) return false;
  const moved = await db.evalRun.updateMany({
    where: { id: runId, status: "awaiting_review" },
    data: { status: "completed", completedAt: new Date() },
  });
  if (moved.count && isRoot(db)) emitRunEvent(db, "run.completed", runId);
  return moved.count > 0;
}
