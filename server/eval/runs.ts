import { randomInt } from "node:crypto";
import type { z } from "zod";
import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { env } from "../core/env";
import { errors } from "../core/errors";
import { WorkflowSchema } from "../workflow";
import { EVAL_LIMITS } from "./limits";
import { actorLabels, type Principal, actorRef } from "../auth/service";
import { evalErrors, isUniqueViolation } from "./errors";
import { parseAnswerRows } from "./io";
import { judgeProvider, judgeStoredItem, suggest, suggestInputFor } from "./judging";
import { getEvalQueue, type RunQueue } from "./queue";
import {
  CreateRunInput,
  ListItemsQuery,
  ListRunsQuery,
  PastedAnswersInput,
  QueueFilterQuery,
  RerunInput,
} from "./schemas";
import {
  classificationWhere,
  itemOut,
  itemSelect,
  queueRowOut,
  queueSelect,
  spotCheckWhere,
  suggestionWhere,
} from "./items";
import { progressOf, progressOfRuns, resolveRun, runOut, runSelect, settleAnswering, type RunRow } from "./store";

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
    rerunOfId?: string;
  },
  actor: Principal | null,
) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.$transaction(
        async (tx) => {
          // the gate threshold is fixed now: changing the set's threshold later never changes this run's gate
          const { set } = await tx.evalSetVersion.findUniqueOrThrow({
            where: { id: data.setVersionId },
            select: { set: { select: { gateThreshold: true } } },
          });
          const run = await tx.evalRun.create({
            data: { ...data, gateThreshold: set.gateThreshold, shortId: newShortId(), createdById: actorRef(actor) },
            select: { id: true },
          });
          const samples = await tx.evalSample.findMany({
            where: { setVersionId: data.setVersionId },
            select: { id: true },
            orderBy: { position: "asc" },
          });
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

// ---------------------------------------------------------------- items

/** The item filters of listItems and listQueue (one place). */
function itemsWhere(runId: string, q: z.output<typeof QueueFilterQuery>): Prisma.EvalRunItemWhereInput {
  const and: Prisma.EvalRunItemWhereInput[] = [{ runId }];
  if (q.status) and.push({ status: q.status });
  if (q.verdict) and.push(q.verdict === "none" ? { verdict: null } : { verdict: q.verdict });
  if (q.suggestion) and.push(suggestionWhere(q.suggestion));
  if (q.spotCheck) and.push(spotCheckWhere());
  if (q.classification !== undefined) and.push(classificationWhere(q.classification));
  if (q.q)
    and.push({
      sample: {
        OR: [{ question: { contains: q.q, mode: "insensitive" } }, { key: { contains: q.q, mode: "insensitive" } }],
      },
    });
  return { AND: and };
}

const itemOrder = [
  { sample: { position: "asc" } },
  { id: "asc" },
] satisfies Prisma.EvalRunItemOrderByWithRelationInput[];

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
  return {
    run: runOut(run, await progressOf(db, run.id)),
    items: page.map(itemOut),
    nextCursor: rows.length > q.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/**
 * The review progress of a run, counted by the server (the one spot-check rule, `spotCheckWhere`): judged / total,
 * human vs adopted, spot-check items not yet confirmed by a person, and what bulk adopt would write now (`adoptable`)
 * or leave to a person (`unknownOpen`). Pages read it fresh after verdicts and before they offer adoption.
 */
export async function reviewProgress(db: Db, idOrShort: string) {
  const run = await resolveRun(db, idOrShort);
  return countsOf(db, run.id);
}

async function countsOf(db: Db, runId: string) {
  const [progress, spotCheckLeft, adoptable, unknownOpen] = await Promise.all([
    progressOf(db, runId),
    db.evalRunItem.count({
      where: { AND: [{ runId }, spotCheckWhere(), { OR: [{ verdict: null }, { verdictSource: "adopted" }] }] },
    }),
    db.evalRunItem.count({
      where: { AND: [{ runId, verdict: null }, { OR: [suggestionWhere("pass"), suggestionWhere("fail")] }] },
    }),
    db.evalRunItem.count({ where: { AND: [{ runId, verdict: null }, suggestionWhere("unknown")] } }),
  ]);
  const { total, judged, human, adopted } = progress;
  return { progress, counts: { total, judged, human, adopted, spotCheckLeft, adoptable, unknownOpen } };
}

/**
 * The annotation queue: compact rows (no answers or payloads) with the same filters as listItems. The first page (no
 * cursor) also carries the review progress (reviewProgress) with the number of items matching the filters; the pages
 * after it carry `counts: null` (the page reads the progress from GET …/progress after verdicts, so a long queue is
 * not recounted per page).
 */
export async function listQueue(db: Db, idOrShort: string, query: z.input<typeof ListItemsQuery>) {
  const q = ListItemsQuery.parse(query);
  const run = await resolveRun(db, idOrShort);
  const first = !q.cursor;
  const [rows, { progress, counts }, matching] = await Promise.all([
    db.evalRunItem.findMany({
      where: itemsWhere(run.id, q),
      orderBy: itemOrder,
      take: q.limit + 1,
      ...(q.cursor ? { cursor: { id: q.cursor }, skip: 1 } : {}),
      select: queueSelect,
    }),
    first ? countsOf(db, run.id) : progressOf(db, run.id).then((progress) => ({ progress, counts: null })),
    first ? db.evalRunItem.count({ where: itemsWhere(run.id, q) }) : null,
  ]);
  const page = rows.slice(0, q.limit);
  return {
    run: runOut(run, progress),
    counts: counts && matching !== null ? { ...counts, matching } : null,
    items: page.map(queueRowOut),
    nextCursor: rows.length > q.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/**
 * Items still to do in a queue: without a verdict; under the spot-check filter also the adopted ones, since a
 * spot-check item is left until a person has typed its verdict (`spotCheckLeft` in suggest.ts, the same rule as the
 * progress's `spotCheckLeft` count and the gate's spot-checks).
 */
function openWhere(q: { spotCheck?: boolean }): Prisma.EvalRunItemWhereInput {
  return q.spotCheck ? { OR: [{ verdict: null }, { verdictSource: "adopted" }] } : { verdict: null };
}

/** How many matching items on each side of an item `queueNeighbours` returns. */
export const NEIGHBOUR_WINDOW = 20;

/**
 * Where one item sits in the queue under the filters, in queue order (sample position, then id), whether it matches
 * them or not (a shared link opens any item): its place among the matching items (null when it does not match), up to
 * NEIGHBOUR_WINDOW matching items before it (`before`, in queue order: its previous one is the last) and after it
 * (`after`: its next one is the first) with the place of the first of them (`firstPosition`: of `before`, the item when it
 * matches, `after`, in that order), and the next matching
 * item still to do after it, else the first one before it (`nextOpen`: where the view goes after a verdict; still to
 * do = no verdict, and under the spot-check filter also an adopted verdict: `openWhere`).
 * Lets a page move with J/K from an item it has not loaded in its list, without loading the pages before it.
 */
export async function queueNeighbours(
  db: Db,
  idOrShort: string,
  itemId: string,
  query: z.input<typeof QueueFilterQuery>,
) {
  const q = QueueFilterQuery.parse(query);
  const run = await resolveRun(db, idOrShort);
  const item = await db.evalRunItem.findFirst({
    where: { id: itemId, runId: run.id },
    select: { id: true, sample: { select: { position: true } } },
  });
  if (!item) throw errors.notFound(`Item ${itemId} of run ${run.shortId}`);
  const where = itemsWhere(run.id, q);
  const p = item.sample.position;
  const beforeIt: Prisma.EvalRunItemWhereInput = {
    OR: [{ sample: { position: { lt: p } } }, { sample: { position: p }, id: { lt: item.id } }],
  };
  const afterIt: Prisma.EvalRunItemWhereInput = {
    OR: [{ sample: { position: { gt: p } } }, { sample: { position: p }, id: { gt: item.id } }],
  };
  const backwards = [
    { sample: { position: "desc" } },
    { id: "desc" },
  ] satisfies Prisma.EvalRunItemOrderByWithRelationInput[];
  const [matches, ahead, matching, before, after, openAfter] = await Promise.all([
    db.evalRunItem.count({ where: { AND: [where, { id: item.id }] } }),
    db.evalRunItem.count({ where: { AND: [where, beforeIt] } }),
    db.evalRunItem.count({ where }),
    db.evalRunItem.findMany({
      where: { AND: [where, beforeIt] },
      orderBy: backwards,
      take: NEIGHBOUR_WINDOW,
      select: queueSelect,
    }),
    db.evalRunItem.findMany({
      where: { AND: [where, afterIt] },
      orderBy: itemOrder,
      take: NEIGHBOUR_WINDOW,
      select: queueSelect,
    }),
    db.evalRunItem.findFirst({
      where: { AND: [where, afterIt, openWhere(q)] },
      orderBy: itemOrder,
      select: queueSelect,
    }),
  ]);
  const nextOpen =
    openAfter ??
    (await db.evalRunItem.findFirst({
      where: { AND: [where, beforeIt, openWhere(q)] },
      orderBy: itemOrder,
      select: queueSelect,
    }));
  return {
    itemId: item.id,
    position: matches ? ahead + 1 : null,
    matching,
    firstPosition: ahead - before.length + 1,
    before: before.reverse().map(queueRowOut),
    after: after.map(queueRowOut),
    nextOpen: nextOpen ? queueRowOut(nextOpen) : null,
  };
}

export async function getItem(db: Db, idOrShort: string, itemId: string) {
  const run = await resolveRun(db, idOrShort);
  const row = await db.evalRunItem.findFirst({
    where: { id: itemId, runId: run.id },
    select: { ...itemSelect, verdictChanges: { orderBy: { version: "asc" } } },
  });
  if (!row) throw errors.notFound(`Item ${itemId} of run ${run.shortId}`);
  const { verdictChanges, ...item } = row;
  const labels = await actorLabels(db, [item.verdictById, ...verdictChanges.map((c) => c.byId)]);
  const out = itemOut(item);
  return {
    ...out,
    verdict: out.verdict ? { ...out.verdict, byLabel: labels.get(out.verdict.byId ?? "") ?? null } : null,
    history: verdictChanges.map((c) => ({
      id: c.id,
      version: c.version,
      before: c.before,
      after: c.after,
      byId: c.byId,
      byLabel: labels.get(c.byId ?? "") ?? null,
      at: c.at,
    })),
  };
}

// ---------------------------------------------------------------- pasted answers and re-judging

type JudgeTarget = { id: string; runId: string };

/** Suggestions for items: inline with the built-in judge; through the queue when the LLM judge is in use. */
async function judgeItems(db: Db, run: RunRow, targets: JudgeTarget[], deps: RunDeps) {
  if (!targets.length) return;
  if (judgeProvider()) {
    await (await queueOf(db, deps)).enqueue(
      targets.map((t) => ({ runId: t.runId, itemId: t.id, kind: "judge" as const })),
    );
    return;
  }
  for (const t of targets)
    await judgeStoredItem(db, t.id, { tier: run.tier, setAssertions: run.setVersion.assertions }, null);
}

/**
 * Pasted mode: answers matched by sample id (or key). Invalid rows reject the whole upload (400 IMPORT_INVALID);
 * rows that match no sample of the run are reported in `unmatched`; items that already have a verdict are not
 * overwritten (`skipped`). A row with `error` marks its item failed.
 */
export async function submitPastedAnswers(
  db: Db,
  idOrShort: string,
  input: z.input<typeof PastedAnswersInput>,
  deps: RunDeps = {},
) {
  const data = PastedAnswersInput.parse(input);
  const run = await resolveRun(db, idOrShort);
  if (run.mode !== "pasted")
    throw evalErrors.runMode(
      `Run ${run.shortId} answers in the platform; pasted answers need a run created with mode "pasted"`,
    );
  if (run.status !== "created" && run.status !== "answering")
    throw evalErrors.runState(`Run ${run.shortId} is ${run.status}: it no longer takes answers`, run.status);
  if (data.content !== undefined && Buffer.byteLength(data.content, "utf8") > EVAL_LIMITS.maxImportBytes) {
    throw evalErrors.limit(
      `The upload is larger than ${EVAL_LIMITS.maxImportBytes} bytes`,
      "maxImportBytes",
      EVAL_LIMITS.maxImportBytes,
    );
  }
  const parsed = parseAnswerRows({ answers: data.answers, format: data.format, content: data.content });
  if (parsed.rows.length > EVAL_LIMITS.maxAnswersPerUpload) {
    throw evalErrors.limit(
      `At most ${EVAL_LIMITS.maxAnswersPerUpload} answers per upload`,
      "maxAnswersPerUpload",
      EVAL_LIMITS.maxAnswersPerUpload,
    );
  }
  if (parsed.errors.length) throw evalErrors.importInvalid(parsed.errors);
  const items = await db.evalRunItem.findMany({
    where: { runId: run.id },
    select: {
      id: true,
      verdict: true,
      sample: { select: { id: true, key: true, question: true, expectedPoints: true, assertions: true } },
    },
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
      unmatched.push({
        row: r.row,
        ...(r.sampleId ? { sampleId: r.sampleId } : {}),
        ...(r.key ? { key: r.key } : {}),
        reason: "no sample of this run has this id or key",
      });
      continue;
    }
    if (item.verdict) {
      skipped.push({
        row: r.row,
        sampleId: item.sample.id,
        key: item.sample.key,
        reason: "the item already has a verdict",
      });
      continue;
    }
    if (chosen.has(item.id))
      unmatched.push({
        row: r.row,
        sampleId: item.sample.id,
        key: item.sample.key,
        reason: "duplicate: a later row for the same sample wins",
      });
    chosen.set(item.id, r);
  }
  // with the built-in judge the suggestion is computed here and written with the answer; the LLM judge is queued
  const provider = judgeProvider();
  const rows: Array<{
    id: string;
    status: "answered" | "failed";
    answer: string;
    payload: unknown;
    traceId: string | null;
    latencyMs: number | null;
    error: string | null;
    suggestion: unknown;
  }> = [];
  for (const [itemId, r] of chosen) {
    const sample = itemById.get(itemId)!.sample;
    const suggestion = provider
      ? null
      : (
          await suggest(
            suggestInputFor(
              sample,
              { tier: run.tier, setAssertions: run.setVersion.assertions },
              { answer: r.answer, payload: r.payload ?? null, failed: !!r.error, error: r.error ?? null },
            ),
            { provider: null },
          )
        ).suggestion;
    rows.push({
      id: itemId,
      status: r.error ? "failed" : "answered",
      answer: r.answer,
      payload: r.payload ?? null,
      traceId: r.traceId ?? null,
      latencyMs: r.latencyMs ?? null,
      error: r.error ?? null,
      suggestion,
    });
  }
  const now = new Date();
  await db.$transaction(
    async (tx) => {
      if (run.status === "created")
        await tx.evalRun.updateMany({
          where: { id: run.id, status: "created" },
          data: { status: "answering", startedAt: now },
        });
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
  if (provider)
    await judgeItems(
      db,
      run,
      [...chosen.keys()].map((id) => ({ id, runId: run.id })),
      deps,
    );
  await settleAnswering(db, run.id);
  return { matched: chosen.size, unmatched, skipped, run: await getRun(db, run.id) };
}

/** Recomputes machine suggestions of every answered or failed item (e.g. after configuring an LLM judge or editing set assertions). */
export async function resuggestRun(db: Db, idOrShort: string, deps: RunDeps = {}) {
  const run = await resolveRun(db, idOrShort);
  const targets = await db.evalRunItem.findMany({
    where: { runId: run.id, status: { in: ["answered", "failed"] } },
    select: { id: true, runId: true },
  });
  await judgeItems(db, run, targets, deps);
  return {
    queued: judgeProvider() ? targets.length : 0,
    judged: judgeProvider() ? 0 : targets.length,
    run: await getRun(db, run.id),
  };
}

/** The error recorded on items left without an answer when a pasted run's answering is closed. */
export const NOT_ANSWERED = "NOT_ANSWERED: answering was closed before an answer was pasted for this question";

/**
 * Pasted mode: stop waiting for answers. Every item still pending becomes `failed` with NOT_ANSWERED (judgeable: a
 * person gives it a verdict, normally fail; the built-in rules suggest fail), and the run moves on to awaiting_review.
 * The gate still needs a verdict for every question, so closing never makes a run pass by omission. A run that no
 * longer answers is refused (409 RUN_STATE_CONFLICT) and nothing changes.
 */
export async function closeAnswering(db: Db, idOrShort: string) {
  const run = await resolveRun(db, idOrShort);
  if (run.mode !== "pasted")
    throw evalErrors.runMode(
      `Run ${run.shortId} answers in the platform and closes itself when every item is answered; cancel it to stop`,
    );
  if (run.status !== "created" && run.status !== "answering")
    throw evalErrors.runState(`Run ${run.shortId} is ${run.status}: answering is already closed`, run.status);
  const open = await db.evalRunItem.findMany({
    where: { runId: run.id, status: "pending" },
    orderBy: { sample: { position: "asc" } },
    select: {
      id: true,
      sample: { select: { id: true, key: true, question: true, expectedPoints: true, assertions: true } },
    },
  });
  const rows: Array<{ id: string; suggestion: unknown }> = [];
  for (const i of open) {
    const { suggestion } = await suggest(
      suggestInputFor(
        i.sample,
        { tier: run.tier, setAssertions: run.setVersion.assertions },
        { answer: "", payload: null, failed: true, error: NOT_ANSWERED },
      ),
      { provider: null },
    );
    rows.push({ id: i.id, suggestion });
  }
  const now = new Date();
  await db.$transaction(
    async (tx) => {
      const moved = await tx.evalRun.updateMany({
        where: { id: run.id, status: { in: ["created", "answering"] } },
        data: { status: "answering", startedAt: run.startedAt ?? now },
      });
      if (!moved.count) throw evalErrors.runState(`Run ${run.shortId} stopped answering meanwhile`, "changed");
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = JSON.stringify(rows.slice(i, i + 500));
        // only items still pending: an answer pasted at the same moment wins
        await tx.$executeRaw`
          UPDATE "EvalRunItem" AS i SET "status" = 'failed', "error" = ${NOT_ANSWERED}, "answeredAt" = ${now}::timestamp,
            "suggestion" = x."suggestion", "suggestedAt" = ${now}::timestamp
          FROM jsonb_to_recordset(${chunk}::jsonb) AS x("id" text, "suggestion" jsonb)
          WHERE i."id" = x."id" AND i."runId" = ${run.id} AND i."status" = 'pending'`;
      }
      await settleAnswering(tx, run.id);
    },
    { timeout: 120_000 },
  );
  return {
    unanswered: open.map((i) => ({ itemId: i.id, sampleId: i.sample.id, key: i.sample.key })),
    run: await getRun(db, run.id),
  };
}
