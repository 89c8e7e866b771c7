import { randomInt } from "node:crypto";
import type { z } from "zod";
import type { Db } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { defaultJudge, describeJudge, storedJudgeSpec } from "../suggestions/judge-agent";
import { env } from "../../core/env";
import { errors } from "../../core/errors";
import { WorkflowSchema } from "../../workflow";
import { actorLabels, type Principal, actorRef } from "../../auth/service";
import { evalErrors, isUniqueViolation } from "../errors";
import { getEvalQueue } from "./worker";
import type { RunQueue } from "./queue-jobs";
import { CreateRunInput, ListRunsQuery, RerunInput } from "./schemas";
import { progressOf, progressOfRuns, resolveRun, runOut, runSelect, settleAnswering, type RunRow } from "./run-rows";

/**
 * Runs. States (EvalRunStatus) and transitions:
 *
 *   created ──start──> answering ──(no item pending/answering)──> awaiting_review ──(every item judged)──> completed
 *      │                  │
 *      └────cancel────────┴──> cancelled        answering ──(snapshot unusable)──> failed
 *
 * - start is idempotent: on answering/awaiting_review/completed it changes nothing (in-platform runs re-enqueue
 *   pending items, which the queue de-duplicates); on cancelled/failed it answers 409 RUN_STATE_CONFLICT.
 * - cancel (created or answering): pending items become cancelled, in-flight executions are aborted, answers
 *   already finished are kept. Idempotent on a cancelled run; 409 after answering has finished.
 * - Pasted runs: start (or the first upload) moves to answering; uploads fill items; once none is pending the run
 *   awaits review.
 * Item states (EvalItemStatus): pending -> answering -> answered | failed (execution error, recorded) |
 *   cancelled; an item interrupted by a shutdown goes back to pending and is resumed.
 */

const SHORT_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"; // Crockford base32: no I, L, O, U

export function newShortId(): string {
  let s = "R-";
  for (let i = 0; i < 5; i++) s += SHORT_ALPHABET[randomInt(SHORT_ALPHABET.length)];
  return s;
}

export type RunDeps = { queue?: RunQueue };
export async function queueOf(db: Db, deps: RunDeps): Promise<RunQueue> {
  return deps.queue ?? (await getEvalQueue(db));
}

async function snapshotVersion(db: Db, agentId: string, agentVersion: number | undefined) {
  const agent = await db.agent.findUnique({ where: { id: agentId }, select: { latestVersion: true } });
  if (!agent) throw errors.notFound(`Agent ${agentId}`);
  const version = agentVersion ?? agent.latestVersion;
  const wv = await db.workflowVersion.findUnique({
    where: { agentId_version: { agentId, version } },
    select: { id: true },
  });
  if (!wv) throw errors.notFound(`Version ${version} of agent ${agentId}`);
  return wv.id;
}

async function insertRun(
  db: Db,
  data: {
    setVersionId: string;
    workflowVersionId: string;
    mode: "in_platform" | "pasted";
    tier: "pipeline_live" | "pipeline" | "invoke";
    environment: string;
    concurrency: number;
    repeats: number;
    rerunOfId?: string;
  },
  actor: Principal | null,
) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.$transaction(
        async (tx) => {
          // the gate threshold and the judge are fixed now: changing the set's later never changes this run's
          const { set } = await tx.evalSetVersion.findUniqueOrThrow({
            where: { id: data.setVersionId },
            select: {
              set: {
                select: {
                  gateThreshold: true,
                  judge: true,
                  reviewsPerItem: true,
                  minReviewerKappa: true,
                  auditRate: true,
                  maxAuditOverturn: true,
                },
              },
            },
          });
          const judge = await describeJudge(tx, storedJudgeSpec(set.judge) ?? defaultJudge());
          // so are the reviews per item, the agreement the gate requires and the audit of adopted passes: a change to
          // the set affects new runs only
          const run = await tx.evalRun.create({
            data: {
              ...data,
              gateThreshold: set.gateThreshold,
              reviewsPerItem: set.reviewsPerItem,
              minReviewerKappa: set.minReviewerKappa,
              auditRate: set.auditRate,
              maxAuditOverturn: set.maxAuditOverturn,
              judge: judge as unknown as Prisma.InputJsonValue,
              shortId: newShortId(),
              createdById: actorRef(actor),
            },
            select: { id: true },
          });
          const samples = await tx.evalSample.findMany({
            where: { setVersionId: data.setVersionId },
            select: { id: true, position: true },
            orderBy: { position: "asc" },
          });
          await tx.evalRunItem.createMany({
            data: samples.map((s) => ({ runId: run.id, sampleId: s.id, position: s.position })),
          });
          return run.id;
        },
        { timeout: 60_000 },
      );
    } catch (e) {
      if (isUniqueViolation(e) && attempt < 5) continue; // short id collision: draw again
      throw e;
    }
  }
}

export async function getRun(db: Db, idOrShort: string) {
  const run = await resolveRun(db, idOrShort);
  const [progress, labels] = await Promise.all([progressOf(db, run.id), actorLabels(db, [run.createdById])]);
  return runOut(run, progress, labels.get(run.createdById ?? "") ?? null);
}

/** Creates a run from a FROZEN set version (anything else: 400 SET_VERSION_NOT_FROZEN), snapshotting the agent's workflow version. */
export async function createRun(db: Db, input: z.input<typeof CreateRunInput>, actor: Principal | null) {
  const data = CreateRunInput.parse(input);
  const v = await db.evalSetVersion.findUnique({
    where: { id: data.setVersionId },
    select: { id: true, status: true, version: true, set: { select: { agentId: true } } },
  });
  if (!v) throw errors.notFound(`Set version ${data.setVersionId}`);
  if (v.status !== "frozen") throw evalErrors.notFrozen(`Set version ${v.version}`);
  const workflowVersionId = await snapshotVersion(db, v.set.agentId, data.agentVersion);
  const id = await insertRun(
    db,
    {
      setVersionId: v.id,
      workflowVersionId,
      mode: data.mode,
      tier: data.tier,
      environment: data.environment,
      concurrency: data.concurrency ?? env().EVAL_CONCURRENCY,
      repeats: data.repeats,
    },
    actor,
  );
  return getRun(db, id);
}

/** "Re-run the same batch": a new run on the same frozen version, mode and tier, snapshotting the agent's current version. */
export async function rerunRun(db: Db, idOrShort: string, input: z.input<typeof RerunInput>, actor: Principal | null) {
  const data = RerunInput.parse(input ?? {});
  const src = await resolveRun(db, idOrShort);
  const workflowVersionId = await snapshotVersion(db, src.setVersion.set.agentId, data.agentVersion);
  const id = await insertRun(
    db,
    {
      setVersionId: src.setVersionId,
      workflowVersionId,
      mode: src.mode,
      tier: src.tier,
      environment: data.environment ?? src.environment,
      concurrency: src.concurrency,
      repeats: src.repeats,
      rerunOfId: src.id,
    },
    actor,
  );
  return getRun(db, id);
}

export async function listRuns(db: Db, query: z.input<typeof ListRunsQuery>) {
  const q = ListRunsQuery.parse(query);
  const rerunOf = q.rerunOf ? await resolveRun(db, q.rerunOf) : null;
  const rows = await db.evalRun.findMany({
    where: {
      ...(q.status ? { status: q.status } : {}),
      ...(q.tier ? { tier: q.tier } : {}),
      ...(q.mode ? { mode: q.mode } : {}),
      ...(rerunOf ? { rerunOfId: rerunOf.id } : {}),
      ...(q.setId || q.agentId
        ? { setVersion: { set: { ...(q.setId ? { id: q.setId } : {}), ...(q.agentId ? { agentId: q.agentId } : {}) } } }
        : {}),
      ...(q.unfiledFails ? { items: { some: { verdict: "fail", badCase: { is: null } } } } : {}),
      ...(q.q
        ? {
            OR: [
              { shortId: { contains: q.q, mode: "insensitive" } },
              { environment: { contains: q.q, mode: "insensitive" } },
              { setVersion: { set: { name: { contains: q.q, mode: "insensitive" } } } },
            ],
          }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
    ...(q.cursor ? { cursor: { id: q.cursor }, skip: 1 } : {}),
    select: runSelect,
  });
  const page = rows.slice(0, q.limit);
  const labels = await actorLabels(
    db,
    page.map((r) => r.createdById),
  );
  const progress = await progressOfRuns(
    db,
    page.map((r) => r.id),
  );
  const items = page.map((r) => runOut(r, progress.get(r.id)!, labels.get(r.createdById ?? "") ?? null));
  return { items, nextCursor: rows.length > q.limit ? (page.at(-1)?.id ?? null) : null };
}

async function enqueuePending(db: Db, run: RunRow, deps: RunDeps) {
  const pending = await db.evalRunItem.findMany({
    where: { runId: run.id, status: { in: ["pending", "answering"] } },
    select: { id: true },
  });
  if (pending.length)
    await (await queueOf(db, deps)).enqueue(
      pending.map((p) => ({ runId: run.id, itemId: p.id, kind: "answer" as const })),
    );
}

/** Starts answering. Idempotent (see the state diagram above). */
export async function startRun(db: Db, idOrShort: string, deps: RunDeps = {}) {
  const run = await resolveRun(db, idOrShort);
  if (run.status === "cancelled" || run.status === "failed")
    throw evalErrors.runState(`Run ${run.shortId} is ${run.status}; create a new run (or re-run it)`, run.status);
  if (run.status === "created") {
    if (run.mode === "in_platform") {
      // the snapshot must be a workflow the runtime can run; otherwise the run fails at once (state `failed`)
      const wv = await db.workflowVersion.findUnique({
        where: { id: run.workflowVersionId },
        select: { workflow: true },
      });
      const parsed = WorkflowSchema.safeParse(wv?.workflow);
      if (!parsed.success) {
        const error = `the snapshotted workflow version cannot run: ${parsed.error.issues[0]?.message ?? "missing"}`;
        await db.evalRun.updateMany({
          where: { id: run.id, status: "created" },
          data: { status: "failed", error, startedAt: new Date(), completedAt: new Date() },
        });
        await db.evalRunItem.updateMany({ where: { runId: run.id, status: "pending" }, data: { status: "cancelled" } });
        return getRun(db, run.id);
      }
    }
    const moved = await db.evalRun.updateMany({
      where: { id: run.id, status: "created" },
      data: { status: "answering", startedAt: new Date() },
    });
    if (moved.count && run.mode === "in_platform") {
      const total = await db.evalRunItem.count({ where: { runId: run.id } });
      if (total === 0) await settleAnswering(db, run.id);
      else await enqueuePending(db, run, deps);
    }
  } else if (run.status === "answering" && run.mode === "in_platform") {
    await enqueuePending(db, run, deps); // repairs lost jobs; the queue ignores duplicates
  }
  return getRun(db, run.id);
}

export async function cancelRun(db: Db, idOrShort: string, deps: RunDeps = {}) {
  const run = await resolveRun(db, idOrShort);
  if (run.status === "cancelled") return getRun(db, run.id);
  if (run.status !== "created" && run.status !== "answering") {
    throw evalErrors.runState(
      `Run ${run.shortId} is ${run.status}: only a created or answering run can be cancelled`,
      run.status,
    );
  }
  const moved = await db.evalRun.updateMany({
    where: { id: run.id, status: { in: ["created", "answering"] } },
    data: { status: "cancelled", completedAt: new Date() },
  });
  if (moved.count) {
    const pending = await db.evalRunItem.findMany({
      where: { runId: run.id, status: "pending" },
      select: { id: true },
    });
    await db.evalRunItem.updateMany({ where: { runId: run.id, status: "pending" }, data: { status: "cancelled" } });
    if (run.mode === "in_platform" && run.status === "answering") {
      const queue = await queueOf(db, deps);
      queue.abortRun(run.id);
      await queue.cancelItems(pending.map((p) => p.id));
    }
  }
  return getRun(db, run.id);
}
