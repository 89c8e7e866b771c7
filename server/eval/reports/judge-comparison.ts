/**
 * The judge comparison job (`EvalJob` of kind `judge_comparison`, `GET /api/eval/jobs/{id}`): a set's judge switch
 * whose candidate has no suggestions on the set's human-typed items yet. The candidate judges those items as a
 * re-judging does (one judge job per item on the durable queue, `runs/queue.ts`, each within its run's concurrency;
 * its suggestions kept in `otherSuggestions` beside the run's own); each judge job done, or given up after its retries,
 * counts once in the job's progress (`comparisonStep`, registered with the queue when this module loads). The last one
 * decides the switch as the PATCH does (`decideJudgeSwitch`, with the original request's force and reason), in one
 * transaction with the job's end: `succeeded` with `result.switched`, or with `result.refusal` (the
 * JUDGE_AGREEMENT_DROP the PATCH would have answered, its figures in details); `failed` with `error` when it cannot
 * decide (the candidate was deleted or no longer validates). A later judge request on the set supersedes a running job
 * (it fails with JUDGE_COMPARISON_SUPERSEDED); the same candidate again answers the running job.
 */
import type { z } from "zod";
import type { Db } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { ApiError, errors } from "../../core/errors";
import { jsonOrDbNull } from "../errors";
import { type RunDeps, queueOf } from "../runs/runs";
import { registerComparisonStep } from "../runs/queue-jobs";
import type { EvalJobOut, JudgeSwitchFigures } from "../sets/schemas";
import { judgeStoredItem } from "../suggestions/judging";
import { checkJudge, defaultJudge, judgeKey, resolveJudge, runJudgeRef } from "../suggestions/judge-agent";
import type { JudgeSpecT } from "../suggestions/schemas";
import type { CalibrationItem } from "./calibration";
import { type SwitchRequest, decideJudgeSwitch } from "./judge-switch";

export const JUDGE_COMPARISON = "judge_comparison";
type JobOut = z.output<typeof EvalJobOut>;
type Row = {
  id: string;
  kind: string;
  setId: string;
  status: string;
  total: number;
  done: number;
  request: unknown;
  result: unknown;
  error: unknown;
  createdAt: Date;
  finishedAt: Date | null;
};

const jobSelect = {
  id: true,
  kind: true,
  setId: true,
  status: true,
  total: true,
  done: true,
  request: true,
  result: true,
  error: true,
  createdAt: true,
  finishedAt: true,
} as const;

export function jobOut(r: Row): JobOut {
  const req = (r.request ?? {}) as Partial<SwitchRequest>;
  return {
    id: r.id,
    kind: JUDGE_COMPARISON,
    setId: r.setId,
    status: r.status as JobOut["status"],
    progress: { done: Math.min(r.done, r.total), total: r.total },
    request: { judge: req.judge ?? null, force: Boolean(req.force), reason: req.reason ?? null },
    result: (r.result as JobOut["result"]) ?? null,
    error: (r.error as JobOut["error"]) ?? null,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
  };
}

export async function getJob(db: Db, id: string): Promise<JobOut> {
  const row = await db.evalJob.findUnique({ where: { id }, select: jobSelect });
  if (!row) throw errors.notFound(`Job ${id}`);
  return jobOut(row);
}

const sameJudge = (a: unknown, b: JudgeSpecT | null) => JSON.stringify(a ?? null) === JSON.stringify(b);

/** Running comparisons of the set for another candidate than `keep` end as superseded; the one for `keep` is returned. */
export async function supersedeComparisons(db: Db, setId: string, keep?: JudgeSpecT | null) {
  const running = await db.evalJob.findMany({
    where: { setId, kind: JUDGE_COMPARISON, status: "running" },
    select: jobSelect,
  });
  let same: Row | null = null;
  for (const r of running) {
    if (keep !== undefined && sameJudge((r.request as Partial<SwitchRequest>).judge, keep)) {
      same = r;
      continue;
    }
    await db.evalJob.updateMany({
      where: { id: r.id, status: "running" },
      data: {
        status: "failed",
        finishedAt: new Date(),
        error: {
          code: "JUDGE_COMPARISON_SUPERSEDED",
          message: "a later judge request on this set replaced this comparison",
        },
      },
    });
  }
  return same;
}

/** The candidate's key and the human-typed items it has no suggestion on. */
export function itemsToJudge(items: CalibrationItem[], candidate: JudgeSpecT | null) {
  const key = judgeKey(candidate ?? defaultJudge());
  return items.filter((i) => i.suggestions[key] === undefined);
}

/**
 * The built-in judge is lexical and fast: it judges the items here, at once, and the switch is decided in the same
 * request (no job). Each run's own judge decides where the suggestion goes (its own, or otherSuggestions).
 */
export async function judgeInline(db: Db, items: CalibrationItem[], candidate: JudgeSpecT) {
  const judge = await resolveJudge(db, candidate);
  const runs = await db.evalRun.findMany({
    where: { id: { in: [...new Set(items.map((i) => i.runId))] } },
    select: { id: true, tier: true, judge: true, setVersion: { select: { assertions: true } } },
  });
  const byId = new Map(runs.map((r) => [r.id, r]));
  for (const item of items) {
    const run = byId.get(item.runId);
    if (!run) continue;
    const other = runJudgeRef(run.judge).key !== judge.ref.key;
    await judgeStoredItem(db, item.itemId, { tier: run.tier, setAssertions: run.setVersion.assertions }, null, {
      judge,
      as: other ? "other" : "own",
    });
  }
}

/** Starts a comparison job: the candidate judges `items` through the queue; the last one decides (module comment). */
export async function startComparison(
  db: Db,
  setId: string,
  req: SwitchRequest,
  items: CalibrationItem[],
  byId: string | null,
  deps: RunDeps = {},
): Promise<JobOut> {
  const candidate = req.judge ?? defaultJudge();
  const row = await db.evalJob.create({
    data: {
      kind: JUDGE_COMPARISON,
      setId,
      total: items.length,
      request: req as unknown as Prisma.InputJsonValue,
      byId,
    },
    select: jobSelect,
  });
  const runs = await db.evalRun.findMany({
    where: { id: { in: [...new Set(items.map((i) => i.runId))] } },
    select: { id: true, judge: true },
  });
  const ownKey = new Map(runs.map((r) => [r.id, runJudgeRef(r.judge).key]));
  const key = judgeKey(candidate);
  await (await queueOf(db, deps)).enqueue(
    items.map((i) => ({
      kind: "judge" as const,
      runId: i.runId,
      itemId: i.itemId,
      compare: row.id,
      ...(ownKey.get(i.runId) !== key ? { judge: candidate } : {}),
    })),
  );
  return jobOut(row);
}

/** One judge job of a comparison is done: count it once; the last one decides the switch. */
export async function comparisonItemDone(db: Db, jobId: string, itemId: string): Promise<void> {
  await db.$executeRaw`
    UPDATE "EvalJob" SET "done" = "done" + 1, "doneItems" = array_append("doneItems", ${itemId}::text)
    WHERE "id" = ${jobId} AND "status" = 'running' AND NOT (${itemId}::text = ANY("doneItems"))`;
  const job = await db.evalJob.findUnique({ where: { id: jobId }, select: { status: true, done: true, total: true } });
  if (job?.status === "running" && job.done >= job.total) await finishComparison(db, jobId);
}

/** Decides a comparison whose items are all judged, once: the job ends in the transaction that decides the switch. */
export async function finishComparison(db: Db, jobId: string): Promise<void> {
  await db.$transaction(
    async (tx) => {
      const claimed = await tx.$queryRaw<Array<{ setId: string; request: unknown; byId: string | null }>>`
        UPDATE "EvalJob" SET "status" = 'succeeded', "finishedAt" = now()
        WHERE "id" = ${jobId} AND "status" = 'running' AND "done" >= "total"
        RETURNING "setId", "request", "byId"`;
      const job = claimed[0];
      if (!job) return; // another worker decided it, or it was superseded
      const req = job.request as SwitchRequest;
      const end = (data: { status?: string; result?: unknown; error?: unknown }) =>
        tx.evalJob.update({
          where: { id: jobId },
          data: {
            ...(data.status ? { status: data.status } : {}),
            result: jsonOrDbNull(data.result),
            error: jsonOrDbNull(data.error),
          },
        });
      try {
        if (req.judge) await checkJudge(tx, req.judge);
        const { figures } = await decideJudgeSwitch(tx, job.setId, req, { byId: job.byId });
        await end({ result: { switched: true, figures, refusal: null } });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e; // rolled back: the judge job is retried and decides again
        if (e.code === "JUDGE_AGREEMENT_DROP") {
          const figures = e.details[0] as z.output<typeof JudgeSwitchFigures>;
          await end({
            result: {
              switched: false,
              figures,
              refusal: { code: e.code, message: e.message, details: [figures] },
            },
          });
        } else await end({ status: "failed", error: { code: e.code, message: e.message } });
      }
    },
    { timeout: 60_000, maxWait: 30_000 },
  );
}

registerComparisonStep(comparisonItemDone);
