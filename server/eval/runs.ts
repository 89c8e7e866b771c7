import { randomInt } from "node:crypto";
import type { z } from "zod";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { env } from "../core/env";
import { errors } from "../core/errors";
import { WorkflowSchema } from "../workflow";
import { EVAL_LIMITS } from "./limits";
import { actorLabels, type Principal, actorRef } from "../auth/service";
import { evalErrors, isUniqueViolation, jsonOrDbNull } from "./errors";
import { parseAnswerRows } from "./io";
import { judgeProvider, judgeStoredItem, suggest, suggestInputFor } from "./judging";
import { getEvalQueue, type RunQueue } from "./queue";
import { CreateRunInput, ListItemsQuery, ListRunsQuery, PastedAnswersInput, RerunInput } from "./schemas";
import { classificationWhere, itemOut, itemSelect, queueRowOut, queueSelect, spotCheckWhere, suggestionWhere } from "./items";
import { progressOf, resolveRun, runOut, runSelect, settleAnswering, type RunRow } from "./store";

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
async function queueOf(db: Db, deps: RunDeps): Promise<RunQueue> {
  return deps.queue ?? (await getEvalQueue(db));
}

async function snapshotVersion(db: Db, agentId: string, agentVersion: number | undefined) {
  const agent = await db.agent.findUnique({ where: { id: agentId }, select: { latestVersion: true } });
  if (!agent) throw errors.notFound(`Agent ${agentId}`);
  const version = agentVersion ?? agent.latestVersion;
  const wv = await db.workflowVersion.findUnique({ where: { agentId_version: { agentId, version } }, select: { id: true } });
  if (!wv) throw errors.notFound(`Version ${version} of agent ${agentId}`);
  return wv.id;
}

async function insertRun(
  db: Db,
  data: { setVersionId: string; workflowVersionId: string; mode: "in_platform" | "pasted"; tier: "pipeline_live" | "pipeline" | "invoke"; environment: string; concurrency: number; rerunOfId?: string },
  actor: Principal | null,
) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.$transaction(
        async (tx) => {
          const run = await tx.evalRun.create({ data: { ...data, shortId: newShortId(), createdById: actorRef(actor) }, select: { id: true } });
          const samples = await tx.evalSample.findMany({ where: { setVersionId: data.setVersionId }, select: { id: true }, orderBy: { position: "asc" } });
          await tx.evalRunItem.createMany({ data: samples.map((s) => ({ runId: run.id, sampleId: s.id })) });
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
  const v = await db.evalSetVersion.findUnique({ where: { id: data.setVersionId }, select: { id: true, status: true, version: true, set: { select: { agentId: true } } } });
  if (!v) throw errors.notFound(`Set version ${data.setVersionId}`);
  if (v.status !== "frozen") throw evalErrors.notFrozen(`Set version ${v.version}`);
  const workflowVersionId = await snapshotVersion(db, v.set.agentId, data.agentVersion);
  const id = await insertRun(
    db,
    { setVersionId: v.id, workflowVersionId, mode: data.mode, tier: data.tier, environment: data.environment, concurrency: data.concurrency ?? env().EVAL_CONCURRENCY },
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
      ...(q.setId || q.agentId ? { setVersion: { set: { ...(q.setId ? { id: q.setId } : {}), ...(q.agentId ? { agentId: q.agentId } : {}) } } } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
    ...(q.cursor ? { cursor: { id: q.cursor }, skip: 1 } : {}),
    select: runSelect,
  });
  const page = rows.slice(0, q.limit);
  const labels = await actorLabels(db, page.map((r) => r.createdById));
  const items = await Promise.all(page.map(async (r) => runOut(r, await progressOf(db, r.id), labels.get(r.createdById ?? "") ?? null)));
  return { items, nextCursor: rows.length > q.limit ? (page.at(-1)?.id ?? null) : null };
}

async function enqueuePending(db: Db, run: RunRow, deps: RunDeps) {
  const pending = await db.evalRunItem.findMany({ where: { runId: run.id, status: { in: ["pending", "answering"] } }, select: { id: true } });
  if (pending.length) await (await queueOf(db, deps)).enqueue(pending.map((p) => ({ runId: run.id, itemId: p.id, kind: "answer" as const })));
}

/** Starts answering. Idempotent (see the state diagram above). */
export async function startRun(db: Db, idOrShort: string, deps: RunDeps = {}) {
  const run = await resolveRun(db, idOrShort);
  if (run.status === "cancelled" || run.status === "failed") throw evalErrors.runState(`Run ${run.shortId} is ${run.status}; create a new run (or re-run it)`, run.status);
  if (run.status === "created") {
    if (run.mode === "in_platform") {
      // the snapshot must be a workflow the runtime can run; otherwise the run fails at once (state `failed`)
      const wv = await db.workflowVersion.findUnique({ where: { id: run.workflowVersionId }, select: { workflow: true } });
      const parsed = WorkflowSchema.safeParse(wv?.workflow);
      if (!parsed.success) {
        const error = `the snapshotted workflow version cannot run: ${parsed.error.issues[0]?.message ?? "missing"}`;
        await db.evalRun.updateMany({ where: { id: run.id, status: "created" }, data: { status: "failed", error, startedAt: new Date(), completedAt: new Date() } });
        await db.evalRunItem.updateMany({ where: { runId: run.id, status: "pending" }, data: { status: "cancelled" } });
        return getRun(db, run.id);
      }
    }
    const moved = await db.evalRun.updateMany({ where: { id: run.id, status: "created" }, data: { status: "answering", startedAt: new Date() } });
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
    throw evalErrors.runState(`Run ${run.shortId} is ${run.status}: only a created or answering run can be cancelled`, run.status);
  }
  const moved = await db.evalRun.updateMany({ where: { id: run.id, status: { in: ["created", "answering"] } }, data: { status: "cancelled", completedAt: new Date() } });
  if (moved.count) {
    const pending = await db.evalRunItem.findMany({ where: { runId: run.id, status: "pending" }, select: { id: true } });
    await db.evalRunItem.updateMany({ where: { runId: run.id, status: "pending" }, data: { status: "cancelled" } });
    if (run.mode === "in_platform" && run.status === "answering") {
      const queue = await queueOf(db, deps);
      queue.abortRun(run.id);
      await queue.cancelItems(pending.map((p) => p.id));
    }
  }
  return getRun(db, run.id);
}

// ---------------------------------------------------------------- items

/** The item filters of listItems and listQueue (one place). */
function itemsWhere(runId: string, q: z.output<typeof ListItemsQuery>): Prisma.EvalRunItemWhereInput {
  const and: Prisma.EvalRunItemWhereInput[] = [{ runId }];
  if (q.status) and.push({ status: q.status });
  if (q.verdict) and.push(q.verdict === "none" ? { verdict: null } : { verdict: q.verdict });
  if (q.suggestion) and.push(suggestionWhere(q.suggestion));
  if (q.spotCheck) and.push(spotCheckWhere());
  if (q.classification !== undefined) and.push(classificationWhere(q.classification));
  if (q.q) and.push({ sample: { OR: [{ question: { contains: q.q, mode: "insensitive" } }, { key: { contains: q.q, mode: "insensitive" } }] } });
  return { AND: and };
}

const itemOrder = [{ sample: { position: "asc" } }, { id: "asc" }] satisfies Prisma.EvalRunItemOrderByWithRelationInput[];

export async function listItems(db: Db, idOrShort: string, query: z.input<typeof ListItemsQuery>) {
  const q = ListItemsQuery.parse(query);
  const run = await resolveRun(db, idOrShort);
  const rows = await db.evalRunItem.findMany({
    where: itemsWhere(run.id, q),
    orderBy: itemOrder,
    take: q.limit + 1,
    ...(q.cursor ? { cursor: { id: q.cursor }, skip: 1 } : {}),
    select: itemSelect,
  });
  const page = rows.slice(0, q.limit);
  return { run: runOut(run, await progressOf(db, run.id)), items: page.map(itemOut), nextCursor: rows.length > q.limit ? (page.at(-1)?.id ?? null) : null };
}

/**
 * The annotation queue: compact rows (no answers or payloads) with the same filters as listItems, and the review
 * progress: judged / total, human vs adopted, and spot-check items not yet confirmed by a person.
 */
export async function listQueue(db: Db, idOrShort: string, query: z.input<typeof ListItemsQuery>) {
  const q = ListItemsQuery.parse(query);
  const run = await resolveRun(db, idOrShort);
  const [rows, progress, adopted, spotCheckLeft, matching, adoptable, unknownOpen] = await Promise.all([
    db.evalRunItem.findMany({
      where: itemsWhere(run.id, q),
      orderBy: itemOrder,
      take: q.limit + 1,
      ...(q.cursor ? { cursor: { id: q.cursor }, skip: 1 } : {}),
      select: queueSelect,
    }),
    progressOf(db, run.id),
    db.evalRunItem.count({ where: { runId: run.id, verdict: { not: null }, verdictSource: "adopted" } }),
    db.evalRunItem.count({ where: { AND: [{ runId: run.id }, spotCheckWhere(), { OR: [{ verdict: null }, { verdictSource: "adopted" }] }] } }),
    db.evalRunItem.count({ where: itemsWhere(run.id, q) }),
    db.evalRunItem.count({ where: { AND: [{ runId: run.id, verdict: null }, { OR: [suggestionWhere("pass"), suggestionWhere("fail")] }] } }),
    db.evalRunItem.count({ where: { AND: [{ runId: run.id, verdict: null }, suggestionWhere("unknown")] } }),
  ]);
  const page = rows.slice(0, q.limit);
  return {
    run: runOut(run, progress),
    counts: { total: progress.total, judged: progress.judged, human: progress.judged - adopted, adopted, spotCheckLeft, matching, adoptable, unknownOpen },
    items: page.map(queueRowOut),
    nextCursor: rows.length > q.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

export async function getItem(db: Db, idOrShort: string, itemId: string) {
  const run = await resolveRun(db, idOrShort);
  const row = await db.evalRunItem.findFirst({ where: { id: itemId, runId: run.id }, select: { ...itemSelect, verdictChanges: { orderBy: { at: "asc" } } } });
  if (!row) throw errors.notFound(`Item ${itemId} of run ${run.shortId}`);
  const { verdictChanges, ...item } = row;
  const labels = await actorLabels(db, [item.verdictById, ...verdictChanges.map((c) => c.byId)]);
  const out = itemOut(item);
  return {
    ...out,
    verdict: out.verdict ? { ...out.verdict, byLabel: labels.get(out.verdict.byId ?? "") ?? null } : null,
    history: verdictChanges.map((c) => ({ id: c.id, before: c.before, after: c.after, byId: c.byId, byLabel: labels.get(c.byId ?? "") ?? null, at: c.at })),
  };
}

// ---------------------------------------------------------------- pasted answers and re-judging

type JudgeTarget = { id: string; runId: string };

/** Suggestions for items: inline with the built-in judge; through the queue when the LLM judge is in use. */
async function judgeItems(db: Db, run: RunRow, targets: JudgeTarget[], deps: RunDeps) {
  if (!targets.length) return;
  if (judgeProvider()) {
    await (await queueOf(db, deps)).enqueue(targets.map((t) => ({ runId: t.runId, itemId: t.id, kind: "judge" as const })));
    return;
  }
  for (const t of targets) await judgeStoredItem(db, t.id, { tier: run.tier, setAssertions: run.setVersion.assertions }, null);
}

/**
 * Pasted mode: answers matched by sample id (or key). Invalid rows reject the whole upload (400 IMPORT_INVALID);
 * rows that match no sample of the run are reported in `unmatched`; items that already have a verdict are not
 * overwritten (`skipped`). A row with `error` marks its item failed.
 */
export async function submitPastedAnswers(db: Db, idOrShort: string, input: z.input<typeof PastedAnswersInput>, deps: RunDeps = {}) {
  const data = PastedAnswersInput.parse(input);
  const run = await resolveRun(db, idOrShort);
  if (run.mode !== "pasted") throw evalErrors.runMode(`Run ${run.shortId} answers in the platform; pasted answers need a run created with mode "pasted"`);
  if (run.status !== "created" && run.status !== "answering") throw evalErrors.runState(`Run ${run.shortId} is ${run.status}: it no longer takes answers`, run.status);
  if (data.content !== undefined && Buffer.byteLength(data.content, "utf8") > EVAL_LIMITS.maxImportBytes) {
    throw evalErrors.limit(`The upload is larger than ${EVAL_LIMITS.maxImportBytes} bytes`, "maxImportBytes", EVAL_LIMITS.maxImportBytes);
  }
  const parsed = parseAnswerRows({ answers: data.answers, format: data.format, content: data.content });
  if (parsed.rows.length > EVAL_LIMITS.maxAnswersPerUpload) {
    throw evalErrors.limit(`At most ${EVAL_LIMITS.maxAnswersPerUpload} answers per upload`, "maxAnswersPerUpload", EVAL_LIMITS.maxAnswersPerUpload);
  }
  if (parsed.errors.length) throw evalErrors.importInvalid(parsed.errors);
  const items = await db.evalRunItem.findMany({
    where: { runId: run.id },
    select: { id: true, verdict: true, sample: { select: { id: true, key: true, question: true, expectedPoints: true, assertions: true } } },
  });
  const itemById = new Map(items.map((i) => [i.id, i]));
  const bySample = new Map(items.map((i) => [i.sample.id, i]));
  const byKey = new Map(items.map((i) => [i.sample.key, i]));
  const unmatched: Array<{ row: number; sampleId?: string; key?: string; reason: string }> = [];
  const skipped: Array<{ row: number; sampleId: string; key: string; reason: string }> = [];
  const chosen = new Map<string, (typeof parsed.rows)[number]>();
  for (const r of parsed.rows) {
    const item = (r.sampleId ? bySample.get(r.sampleId) : undefined) ?? (r.key ? byKey.get(r.key) : undefined);
    if (!item) {
      unmatched.push({ row: r.row, ...(r.sampleId ? { sampleId: r.sampleId } : {}), ...(r.key ? { key: r.key } : {}), reason: "no sample of this run has this id or key" });
      continue;
    }
    if (item.verdict) {
      skipped.push({ row: r.row, sampleId: item.sample.id, key: item.sample.key, reason: "the item already has a verdict" });
      continue;
    }
    if (chosen.has(item.id)) unmatched.push({ row: r.row, sampleId: item.sample.id, key: item.sample.key, reason: "duplicate: a later row for the same sample wins" });
    chosen.set(item.id, r);
  }
  // with the built-in judge the suggestion is computed here and written with the answer; the LLM judge is queued
  const provider = judgeProvider();
  const rows: Array<{ id: string; status: "answered" | "failed"; answer: string; payload: unknown; traceId: string | null; latencyMs: number | null; error: string | null; suggestion: unknown }> = [];
  for (const [itemId, r] of chosen) {
    const sample = itemById.get(itemId)!.sample;
    const suggestion = provider
      ? null
      : (
          await suggest(
            suggestInputFor(sample, { tier: run.tier, setAssertions: run.setVersion.assertions }, { answer: r.answer, payload: r.payload ?? null, failed: !!r.error, error: r.error ?? null }),
            { provider: null },
          )
        ).suggestion;
    rows.push({ id: itemId, status: r.error ? "failed" : "answered", answer: r.answer, payload: r.payload ?? null, traceId: r.traceId ?? null, latencyMs: r.latencyMs ?? null, error: r.error ?? null, suggestion });
  }
  const now = new Date();
  await db.$transaction(
    async (tx) => {
      if (run.status === "created") await tx.evalRun.updateMany({ where: { id: run.id, status: "created" }, data: { status: "answering", startedAt: now } });
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = JSON.stringify(rows.slice(i, i + 500));
        await tx.$executeRaw`
          UPDATE "EvalRunItem" AS i SET
            "status" = x."status"::"EvalItemStatus", "answer" = x."answer", "payload" = x."payload", "traceId" = x."traceId",
            "latencyMs" = x."latencyMs", "error" = x."error", "answeredAt" = ${now}::timestamp, "attempts" = i."attempts" + 1,
            "suggestion" = x."suggestion", "suggestedAt" = CASE WHEN x."suggestion" IS NULL THEN NULL ELSE ${now}::timestamp END
          FROM jsonb_to_recordset(${chunk}::jsonb) AS x("id" text, "status" text, "answer" text, "payload" jsonb, "traceId" text, "latencyMs" int, "error" text, "suggestion" jsonb)
          WHERE i."id" = x."id" AND i."runId" = ${run.id}`;
      }
    },
    { timeout: 120_000 },
  );
  if (provider) await judgeItems(db, run, [...chosen.keys()].map((id) => ({ id, runId: run.id })), deps);
  await settleAnswering(db, run.id);
  return { matched: chosen.size, unmatched, skipped, run: await getRun(db, run.id) };
}

/** Recomputes machine suggestions of every answered or failed item (e.g. after configuring an LLM judge or editing set assertions). */
export async function resuggestRun(db: Db, idOrShort: string, deps: RunDeps = {}) {
  const run = await resolveRun(db, idOrShort);
  const targets = await db.evalRunItem.findMany({ where: { runId: run.id, status: { in: ["answered", "failed"] } }, select: { id: true, runId: true } });
  await judgeItems(db, run, targets, deps);
  return { queued: judgeProvider() ? targets.length : 0, judged: judgeProvider() ? 0 : targets.length, run: await getRun(db, run.id) };
}

