import type { Db } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { WorkflowSchema, type Workflow } from "../../workflow";
import { clearMemoryScope } from "../../runtime";
import { answerSample, type AnswerOutcome } from "./answering";
import { suggest, suggestInputFor, type SuggestOutput } from "../suggestions/judging";
import { defaultJudge, resolveJudge, storedJudgeSpec, type ResolvedJudge } from "../suggestions/judge-agent";
import { mergeTokens } from "../../core/prices";
import type { Tier } from "./schemas";
import type { Turn } from "../sets/schemas";
import { EVAL_LIMITS } from "../limits";
import { settleAnswering } from "./run-rows";
import { metrics } from "../../telemetry/metrics";
import { inSpan } from "../../telemetry/tracing";

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
  /** the workflow has a memory_save node: only then can an answer leave memory of its own to delete */
  savesMemory: boolean;
  setAssertions: unknown;
  concurrency: number;
  /** answers per question (1-5): the 2nd and later are kept in repeatAnswers with their own suggestion */
  repeats: number;
  /** the run's judge, ready to use (an agent judge's workflow loaded once per run) */
  judge: ResolvedJudge;
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
      repeats: true,
      workflowVersionId: true,
      judge: true,
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
    savesMemory: workflow.nodes.some((n) => n.type === "memory_save"),
    setAssertions: run.setVersion.assertions,
    concurrency: run.concurrency,
    repeats: run.repeats,
    judge: await resolveJudge(db, storedJudgeSpec(run.judge) ?? defaultJudge()),
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
  type Claimed = {
    attempts: number;
    question: string;
    script: unknown;
    expectedPoints: unknown;
    assertions: unknown;
    classification: string;
  };
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
      RETURNING i."attempts", s."question", s."script", s."expectedPoints", s."assertions", s."classification"`;
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
  sample: { question: string; script: unknown; expectedPoints: unknown; assertions: unknown; classification: string },
  attempt: number,
): Promise<void> {
  const ctx = await runContext(job.runId);
  // Answer n of the item (0 = the first, the one people judge; repeats 1, 2, ... answer it again, each with its own
  // empty memory and its own idempotency keys, so a provider that honours them never returns the first answer again).
  const answerOnce = (n: number) => {
    // memory of this attempt only: starts empty (reproducible), never production; dropped once the answer is stored
    const memoryScope = `eval-item:${job.itemId}:${attempt}${n ? `:r${n}` : ""}`;
    // the same on every attempt: a model call sent again after an instance died carries the same idempotency key
    const idempotencyScope = `eval:${job.runId}:${job.itemId}${n ? `:r${n}` : ""}`;
    return answerSample(db, {
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
  };
  const judgeOne = (outcome: AnswerOutcome, n: number) =>
    inSpan("eval.judge", { attributes: { "flowbench.eval.answer": n + 1 } }, () =>
      suggest(
        suggestInputFor(sample, ctx, {
          answer: outcome.answer,
          judgeText: outcome.judgeText,
          payload: outcome.payload,
          failed: outcome.status === "failed",
          error: outcome.error,
          steps: outcome.steps,
          hasHttpNodes: ctx.hasHttpNodes,
          turns: outcome.turns,
        }),
        {
          judge: ctx.judge,
          db,
          signal: opts.signal,
          idempotencyScope: `eval:${job.runId}:${job.itemId}${n ? `:r${n}` : ""}:judge`,
        },
      ),
    );
  const outcome = await answerOnce(0);
  if (!opts.alive()) return; // simulated process death: nothing after this point happens
  const fence = { id: job.itemId, attempts: attempt, status: "answering" as const };
  const repeats: Array<{ outcome: AnswerOutcome; judged: SuggestOutput }> = [];
  for (let n = 1; n < ctx.repeats && outcome.status !== "cancelled"; n++) {
    const again = await answerOnce(n);
    if (!opts.alive()) return;
    if (again.status === "cancelled") {
      outcome.status = "cancelled"; // the whole item is interrupted (or cancelled) as below
      break;
    }
    repeats.push({ outcome: again, judged: await judgeOne(again, n) });
  }
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
  const judged = await judgeOne(outcome, 0);
  if (!opts.alive()) return;
  // the item's token and call counts are all its answers' (what it cost); the other answers are kept apart
  const all = [{ outcome, judged }, ...repeats];
  const sum = (f: (x: (typeof all)[number]) => number) => all.reduce((s, x) => s + f(x), 0);
  const repeatAnswers = repeats.length
    ? repeats.map(({ outcome: o, judged: j }, i) => repeatAnswerOf(i + 2, o, j))
    : null;
  const answerUsage = mergeTokens(...all.map((x) => x.outcome.usage));
  const judgeUsage = mergeTokens(...all.map((x) => x.judged.judgeUsage));
  const now = new Date();
  const jsonb = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
  const rows = await db.$queryRaw<Array<{ updated: bigint | number; pendingLeft: boolean; openLeft: boolean }>>`
    WITH upd AS (
      UPDATE "EvalRunItem" SET
        "status" = ${outcome.status}::"EvalItemStatus", "answer" = ${outcome.answer}, "payload" = ${jsonb(outcome.payload)}::jsonb,
        "turns" = ${jsonb(outcome.turns)}::jsonb, "traceId" = ${outcome.traceId}, "latencyMs" = ${outcome.latencyMs},
        "promptTokens" = ${sum((x) => x.outcome.promptTokens)}, "completionTokens" = ${sum((x) => x.outcome.completionTokens)},
        "llmCalls" = ${sum((x) => x.outcome.llmCalls)}, "repeatAnswers" = ${jsonb(repeatAnswers)}::jsonb,
        "error" = ${outcome.error}, "answeredAt" = ${now}, "suggestion" = ${JSON.stringify(judged.suggestion)}::jsonb, "suggestedAt" = ${now},
        "judgeTokens" = ${sum((x) => x.judged.judgeTokens)}, "judgeCalls" = ${sum((x) => x.judged.judgeCalls)}, "leaseUntil" = NULL,
        "answerUsage" = ${JSON.stringify(answerUsage)}::jsonb, "judgeUsage" = ${JSON.stringify(judgeUsage)}::jsonb
      WHERE "id" = ${job.itemId} AND "attempts" = ${attempt} AND "status" = 'answering'
      RETURNING "id")
    SELECT (SELECT count(*) FROM upd) AS "updated",
      EXISTS (SELECT 1 FROM "EvalRunItem" WHERE "runId" = ${job.runId} AND "status" = 'pending' AND "id" <> ${job.itemId}) AS "pendingLeft",
      EXISTS (SELECT 1 FROM "EvalRunItem" WHERE "runId" = ${job.runId} AND "status" IN ('pending', 'answering') AND "id" <> ${job.itemId}) AS "openLeft"`;
  // What is left is the statement's snapshot: two workers finishing the last two items at once each still see the
  // other's item as answering, and neither would settle the run. So after storing an answer the run is checked again
  // after the commit (a new statement sees every committed item), and the later of the two always settles it; unless
  // an item was still pending, whose own answer (or giving up) comes later and settles the run then: most answers
  // need no second statement.
  const updated = Number(rows[0]?.updated ?? 0) > 0;
  if (updated) metrics().evalItems.inc({ outcome: outcome.status });
  if (updated ? !rows[0]?.pendingLeft : !rows[0]?.openLeft) await settleAnswering(db, job.runId);
}

/** One of the other answers of a repeated item as stored in repeatAnswers (the shape of the item detail's otherAnswers). */
function repeatAnswerOf(number: number, o: AnswerOutcome, j: SuggestOutput) {
  return {
    number,
    status: o.status,
    answer: o.answer,
    error: o.error,
    traceId: o.traceId,
    latencyMs: o.latencyMs,
    promptTokens: o.promptTokens,
    completionTokens: o.completionTokens,
    suggestion: j.suggestion,
  };
}

/** After the last retry: the item fails with the reason, so the run always settles. */
export async function giveUpItem(db: Db, job: { runId: string; itemId: string }, message: string): Promise<void> {
  const gaveUp = await db.evalRunItem.updateMany({
    where: { id: job.itemId, status: { in: ["pending", "answering"] } },
    data: {
      status: "failed",
      error: `gave up after repeated failures: ${message}`.slice(0, 2000),
      answeredAt: new Date(),
    },
  });
  if (gaveUp.count) metrics().evalItems.inc({ outcome: "failed" });
  await settleAnswering(db, job.runId);
}
