import type { Db } from "../db/client";
import { WorkflowSchema, type Workflow } from "../workflow";
import { answerSample } from "./answering";
import { suggest, suggestInputFor } from "./judging";
import type { Tier, Turn } from "./schemas";
import { settleAnswering } from "./store";

/**
 * Answering ONE item of an in-platform run, as the queue's worker does it: claim, answer through the runtime,
 * suggest, write back; and giving up on an item whose job failed too often. The queue (queue.ts) is only the
 * transport: it fetches jobs, keeps concurrency, recovers after crashes and calls these functions.
 *
 * Exactly one answer per item: the claim is one UPDATE (status -> answering, attempts + 1) that only succeeds while
 * the run is answering and the item is unfinished; the write-back only succeeds while `attempts` still equals the
 * claimed value (a fencing token). A job delivered twice can never store a second answer.
 */

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

export async function loadRunContext(db: Db, runId: string, parsedWorkflows?: Map<string, Workflow>): Promise<RunContext> {
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
  /** false once the worker "died" (tests simulate a crash): nothing more is written */
  alive: () => boolean;
};

/** Thrown when a shutdown (not the user) interrupted the answer: the item is pending again and the job is retried. */
export class AnswerInterrupted extends Error {}

/**
 * Claims the item, answers it and stores answer + suggestion. The hot path uses three raw statements (claim +
 * sample, write-back + open count) besides the runtime's own trace writes.
 */
export async function answerItem(db: Db, job: { runId: string; itemId: string }, runContext: (runId: string) => Promise<RunContext>, opts: AnswerItemOptions): Promise<void> {
  const claim = await db.$queryRaw<Array<{ attempts: number; question: string; script: unknown; expectedPoints: unknown; assertions: unknown }>>`
    UPDATE "EvalRunItem" AS i SET "status" = 'answering', "attempts" = i."attempts" + 1
    FROM "EvalRun" AS r, "EvalSample" AS s
    WHERE i."id" = ${job.itemId} AND r."id" = i."runId" AND r."status" = 'answering' AND i."status" IN ('pending', 'answering') AND s."id" = i."sampleId"
    RETURNING i."attempts", s."question", s."script", s."expectedPoints", s."assertions"`;
  if (!claim.length) {
    // finished already, or the run stopped: settle what a stopped run left open
    await db.evalRunItem.updateMany({ where: { id: job.itemId, status: { in: ["pending", "answering"] }, run: { status: { in: ["cancelled", "failed"] } } }, data: { status: "cancelled" } });
    return;
  }
  const sample = claim[0]!;
  const attempt = sample.attempts;
  const ctx = await runContext(job.runId);
  const outcome = await answerSample(db, {
    workflow: ctx.workflow,
    tier: ctx.tier,
    agentId: ctx.agentId,
    workflowVersionId: ctx.workflowVersionId,
    question: sample.question,
    script: (sample.script as Turn[] | null) ?? null,
    signal: opts.signal,
  });
  if (!opts.alive()) return; // simulated process death: nothing after this point happens
  const fence = { id: job.itemId, attempts: attempt, status: "answering" as const };
  if (outcome.status === "cancelled") {
    const run = await db.evalRun.findUnique({ where: { id: job.runId }, select: { status: true } });
    if (run?.status === "answering") {
      // interrupted by a shutdown, not by the user: release the item and let pg-boss retry the job
      await db.evalRunItem.updateMany({ where: fence, data: { status: "pending" } });
      throw new AnswerInterrupted("interrupted by a shutdown");
    }
    await db.evalRunItem.updateMany({ where: fence, data: { status: "cancelled", traceId: outcome.traceId, latencyMs: outcome.latencyMs } });
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
    { signal: opts.signal },
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
        "judgeTokens" = ${judged.judgeTokens}, "judgeCalls" = ${judged.judgeCalls}
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
    data: { status: "failed", error: `gave up after repeated failures: ${message}`.slice(0, 2000), answeredAt: new Date() },
  });
  await settleAnswering(db, job.runId);
}
