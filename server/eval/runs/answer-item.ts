import type { Db } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { WorkflowSchema, type Workflow } from "../../workflow";
import { clearMemoryScope } from "../../runtime";
import { answerSample } from "./answering";
import { suggest, suggestInputFor } from "../suggestions/judging";
import type { Tier } from "./schemas";
import type { Turn } from "../sets/schemas";
import { EVAL_LIMITS } from "../limits";
import { settleAnswering } from "./run-rows";

/**
 * Answering ONE item of an in-platform run, as the queue's worker does it: claim, answer through the runtime,
 * suggest, write back; and giving up on an item whose job failed too often. The queue (queue.ts) is only the
 * transport: it fetches jobs, keeps concurrency, recovers after crashes and calls these functions.
 *
 * Exactly one answer per item: the claim (status -> answering, attempts + 1) only succeeds while the run is answering
 * and the item is pending or its worker's lease expired; the write-back only succeeds while `attempts` still equals
 * the claimed value and the item is still answering (a fencing token). A job delivered twice can never store a second
 * answer.
 *
 * The run's `concurrency` is its total across every instance on the database: the claim locks the run's row, counts
 * the items answered under a live lease and answers "busy" at the limit (the queue tries again shortly). The lease
 * (EVAL_LIMITS.workerLeaseSeconds) is renewed by a heartbeat while the item is answered and judged; the queue's
 * sweep hands items whose lease expired (their worker died) to another instance.
 */

/** The database's clock as the column type (timestamp without time zone, UTC), so instances' clocks never matter. */
const DB_NOW = Prisma.sql`(now() AT TIME ZONE 'UTC')`;
const leaseEnd = (seconds: number) => Prisma.sql`(now() AT TIME ZONE 'UTC') + make_interval(secs => ${seconds})`;

/** What answering needs of a run; loaded once per run and cached by the worker. */
export type RunContext = {
  tier: Tier;
  agentId: string;
  workflowVersionId: string;
  workflow: Workflow;
  hasHttpNodes: boolean;
  setAssertions: unknown;
  concurrency: number;
};

export async function loadRunContext(
  db: Db,
  runId: string,
  parsedWorkflows?: Map<string, Workflow>,
): Promise<RunContext> {
  const run = await db.evalRun.findUniqueOrThrow({
    where: { id: runId },
    select: {
      tier: true,
      concurrency: true,
      workflowVersionId: true,
      workflowVersion: { select: { workflow: true, agentId: true } },
      setVersion: { select: { assertions: true } },
    },
  });
  let workflow = parsedWorkflows?.get(run.workflowVersionId);
  if (!workflow) {
    const parsed = WorkflowSchema.safeParse(run.workflowVersion.workflow);
    workflow = parsed.success ? parsed.data : (run.workflowVersion.workflow as unknown as Workflow);
    parsedWorkflows?.set(run.workflowVersionId, workflow);
  }
  return {
    tier: run.tier,
    agentId: run.workflowVersion.agentId,
    workflowVersionId: run.workflowVersionId,
    workflow,
    hasHttpNodes: workflow.nodes.some((n) => n.type === "http"),
    setAssertions: run.setVersion.assertions,
    concurrency: run.concurrency,
  };
}

export type AnswerItemOptions = {
  signal: AbortSignal;
  /** the worker's lease on the item (default EVAL_LIMITS.workerLeaseSeconds) */
  leaseSeconds?: number;
  /** false once the worker "died" (tests simulate a crash): nothing more is written */
  alive: () => boolean;
};

/** Thrown when a shutdown (not the user) interrupted the answer: the item is pending again and the job is retried. */
export class AnswerInterrupted extends Error {}

/**
 * Claims the item, answers it and stores answer + suggestion. The hot path uses three raw statements (claim +
 * sample, write-back + open count) besides the runtime's own trace writes.
 */
export async function answerItem(
  db: Db,
  job: { runId: string; itemId: string },
  runContext: (runId: string) => Promise<RunContext>,
  opts: AnswerItemOptions,
): Promise<"done" | "busy"> {
  const leaseSeconds = opts.leaseSeconds ?? EVAL_LIMITS.workerLeaseSeconds;
  type Claimed = { attempts: number; question: string; script: unknown; expectedPoints: unknown; assertions: unknown };
  const claim = await db.$transaction(async (tx): Promise<Claimed[] | "busy"> => {
    const run = await tx.$queryRaw<Array<{ status: string; concurrency: number }>>`
      SELECT "status"::text AS "status", "concurrency" FROM "EvalRun" WHERE "id" = ${job.runId} FOR UPDATE`;
    if (run[0]?.status !== "answering") return [];
    const live = await tx.$queryRaw<Array<{ n: bigint | number }>>`
      SELECT count(*) AS "n" FROM "EvalRunItem"
      WHERE "runId" = ${job.runId} AND "status" = 'answering' AND "leaseUntil" > ${DB_NOW} AND "id" <> ${job.itemId}`;
    if (Number(live[0]?.n ?? 0) >= run[0].concurrency) return "busy";
    return tx.$queryRaw<Claimed[]>`
      UPDATE "EvalRunItem" AS i SET "status" = 'answering', "attempts" = i."attempts" + 1, "leaseUntil" = ${leaseEnd(leaseSeconds)}
      FROM "EvalSample" AS s
      WHERE i."id" = ${job.itemId} AND s."id" = i."sampleId"
        AND (i."status" = 'pending' OR (i."status" = 'answering' AND (i."leaseUntil" IS NULL OR i."leaseUntil" <= ${DB_NOW})))
      RETURNING i."attempts", s."question", s."script", s."expectedPoints", s."assertions"`;
  });
  if (claim === "busy") return "busy";
  if (!claim.length) {
    // finished already, answered elsewhere under a live lease, or the run stopped: settle what a stopped run left open
    await db.evalRunItem.updateMany({
      where: {
        id: job.itemId,
        status: { in: ["pending", "answering"] },
        run: { status: { in: ["cancelled", "failed"] } },
      },
      data: { status: "cancelled" },
    });
    return "done";
  }
  const sample = claim[0]!;
  const attempt = sample.attempts;
  const heartbeat = setInterval(
    () => {
      if (!opts.alive()) return clearInterval(heartbeat); // a dead worker renews nothing
      db.$executeRaw`UPDATE "EvalRunItem" SET "leaseUntil" = ${leaseEnd(leaseSeconds)} WHERE "id" = ${job.itemId} AND "attempts" = ${attempt} AND "status" = 'answering'`.catch(
        () => undefined,
      );
    },
    (leaseSeconds * 1000) / 3,
  );
  heartbeat.unref?.();
  try {
    await answerClaimed(db, job, runContext, opts, sample, attempt);
  } finally {
    clearInterval(heartbeat);
  }
  return "done";
}

async function answerClaimed(
  db: Db,
  job: { runId: string; itemId: string },
  runContext: (runId: string) => Promise<RunContext>,
  opts: AnswerItemOptions,
  sample: { question: string; script: unknown; expectedPoints: unknown; assertions: unknown },
  attempt: number,
): Promise<void> {
  const ctx = await runContext(job.runId);
  // memory of this attempt only: starts empty (reproducible), never production; dropped once the answer is stored
  const memoryScope = `eval-item:${job.itemId}:${attempt}`;
  // the same on every attempt: a model call sent again after an instance died carries the same idempotency key
  const idempotencyScope = `eval:${job.runId}:${job.itemId}`;
  const outcome = await answerSample(db, {
    workflow: ctx.workflow,
    tier: ctx.tier,
    agentId: ctx.agentId,
    workflowVersionId: ctx.workflowVersionId,
    question: sample.question,
    script: (sample.script as Turn[] | null) ?? null,
    memoryScope,
    idempotencyScope,
    signal: opts.signal,
  }).finally(() => clearMemoryScope(db, memoryScope).catch(() => undefined));
  if (!opts.alive()) return; // simulated process death: nothing after this point happens
  const fence = { id: job.itemId, attempts: attempt, status: "answering" as const };
  if (outcome.status === "cancelled") {
    const run = await db.evalRun.findUnique({ where: { id: job.runId }, select: { status: true } });
    if (run?.status === "answering") {
      // interrupted by a shutdown, not by the user: release the item and let pg-boss retry the job
      await db.evalRunItem.updateMany({ where: fence, data: { status: "pending" } });
      throw new AnswerInterrupted("interrupted by a shutdown");
    }
    await db.evalRunItem.updateMany({
      where: fence,
      data: { status: "cancelled", traceId: outcome.traceId, latencyMs: outcome.latencyMs },
    });
    return;
  }
  const judged = await suggest(
    suggestInputFor(sample, ctx, {
      answer: outcome.answer,
      judgeText: outcome.judgeText,
      payload: outcome.payload,
      failed: outcome.status === "failed",
      error: outcome.error,
      steps: outcome.steps,
      hasHttpNodes: ctx.hasHttpNodes,
    }),
    { signal: opts.signal, idempotencyScope: `${idempotencyScope}:judge` },
  );
  if (!opts.alive()) return;
  const now = new Date();
  const jsonb = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
  const rows = await db.$queryRaw<Array<{ updated: bigint | number; open: bigint | number }>>`
    WITH upd AS (
      UPDATE "EvalRunItem" SET
        "status" = ${outcome.status}::"EvalItemStatus", "answer" = ${outcome.answer}, "payload" = ${jsonb(outcome.payload)}::jsonb,
        "turns" = ${jsonb(outcome.turns)}::jsonb, "traceId" = ${outcome.traceId}, "latencyMs" = ${outcome.latencyMs},
        "promptTokens" = ${outcome.promptTokens}, "completionTokens" = ${outcome.completionTokens}, "llmCalls" = ${outcome.llmCalls},
        "error" = ${outcome.error}, "answeredAt" = ${now}, "suggestion" = ${JSON.stringify(judged.suggestion)}::jsonb, "suggestedAt" = ${now},
        "judgeTokens" = ${judged.judgeTokens}, "judgeCalls" = ${judged.judgeCalls}, "leaseUntil" = NULL,
        "answerUsage" = ${JSON.stringify(outcome.usage)}::jsonb, "judgeUsage" = ${JSON.stringify(judged.judgeUsage)}::jsonb
      WHERE "id" = ${job.itemId} AND "attempts" = ${attempt} AND "status" = 'answering'
      RETURNING "id")
    SELECT (SELECT count(*) FROM upd) AS "updated",
      (SELECT count(*) FROM "EvalRunItem" WHERE "runId" = ${job.runId} AND "status" IN ('pending', 'answering') AND "id" <> ${job.itemId}) AS "open"`;
  // The count above is the statement's snapshot: two workers finishing the last two items at once each still
  // see the other's item as answering, and neither would settle the run. Re-count after the commit (a new
  // statement sees every committed item), so the later of the two always settles it.
  if (Number(rows[0]?.updated ?? 0) > 0 || Number(rows[0]?.open ?? 1) === 0) await settleAnswering(db, job.runId);
}

/** After the last retry: the item fails with the reason, so the run always settles. */
export async function giveUpItem(db: Db, job: { runId: string; itemId: string }, message: string): Promise<void> {
  await db.evalRunItem.updateMany({
    where: { id: job.itemId, status: { in: ["pending", "answering"] } },
    data: {
      status: "failed",
      error: `gave up after repeated failures: ${message}`.slice(0, 2000),
      answeredAt: new Date(),
    },
  });
  await settleAnswering(db, job.runId);
}
