/**
 * Bad Cases: a failed question kept for fixing (one per item), created one at a time or for every fail of a run, listed,
 * read with its history, moved through its statuses (verified only with evidence: a human pass in a later platform run
 * of a newer agent version, or a manager's recorded reason).
 */
import type { z } from "zod";
import { emitWebhookEvent } from "../../webhooks/emit";
import type { Db } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { can } from "../../auth/roles";
import { actorLabels, type Principal, actorRef } from "../../auth/service";
import { ApiError, errors, parseInput } from "../../core/errors";
import { evalError, isUniqueViolation } from "../errors";
import { badCaseEvidence, notEvidence, verifyingRun } from "./bad-case-evidence";
import { CreateBadCaseInput, ListBadCasesQuery, UpdateBadCaseInput } from "./schemas";
import { resolveRun } from "../runs/run-rows";

// ---------------------------------------------------------------- bad cases

/** `bad_case.changed` (created, or status, title or notes changed), in the background after the write. */
function emitBadCase(db: Db, change: "created" | "updated", row: BadCaseRow, fromStatus: string | null = null) {
  emitWebhookEvent(db, "bad_case.changed", {
    change,
    badCaseId: row.id,
    status: row.status,
    fromStatus,
    title: row.title,
    runId: row.runId,
    shortId: row.run.shortId,
    itemId: row.itemId,
    key: row.item.sample.key,
    agentId: row.run.setVersion.set.agentId,
    setId: row.run.setVersion.set.id,
  });
}

const badCaseSelect = {
  id: true,
  status: true,
  title: true,
  notes: true,
  attribution: true,
  itemId: true,
  runId: true,
  sampleId: true,
  createdById: true,
  createdAt: true,
  updatedAt: true,
  verifiedRunId: true,
  verifiedReason: true,
  run: {
    select: {
      shortId: true,
      workflowVersion: { select: { version: true } },
      setVersion: { select: { set: { select: { id: true, name: true, agentId: true } } } },
    },
  },
  item: { select: { classification: true, sample: { select: { key: true, question: true, classification: true } } } },
} as const;
type BadCaseRow = Prisma.BadCaseGetPayload<{ select: typeof badCaseSelect }>;

function badCaseOut(b: BadCaseRow, labels?: Map<string, string>) {
  const { run, item, ...rest } = b;
  const set = run.setVersion.set;
  return {
    ...rest,
    runShortId: run.shortId,
    foundInVersion: run.workflowVersion.version,
    agentId: set.agentId,
    setId: set.id,
    setName: set.name,
    sampleKey: item.sample.key,
    question: item.sample.question,
    classification: item.classification || item.sample.classification,
    createdByLabel: labels?.get(b.createdById ?? "") ?? b.createdById,
  };
}

async function badCasesOut(db: Db, rows: BadCaseRow[]) {
  const labels = await actorLabels(
    db,
    rows.map((r) => r.createdById),
  );
  return rows.map((r) => badCaseOut(r, labels));
}

/** A failed item becomes a Bad Case (idempotent: the existing one is returned). */
export async function createBadCase(
  db: Db,
  runIdOrShort: string,
  itemId: string,
  input: z.input<typeof CreateBadCaseInput>,
  actor: Principal | null,
) {
  const data = CreateBadCaseInput.parse(input ?? {});
  const run = await resolveRun(db, runIdOrShort);
  const item = await db.evalRunItem.findFirst({
    where: { id: itemId, runId: run.id },
    select: {
      id: true,
      verdict: true,
      attribution: true,
      sampleId: true,
      badCase: { select: badCaseSelect },
      sample: { select: { key: true, question: true } },
    },
  });
  if (!item) throw errors.notFound(`Item ${itemId} of run ${run.shortId}`);
  if (item.badCase) return { created: false, badCase: (await badCasesOut(db, [item.badCase]))[0]! };
  if (item.verdict !== "fail")
    throw new ApiError(409, "BAD_CASE_REQUIRES_FAIL", "Only an item whose verdict is fail can become a Bad Case", [
      { verdict: item.verdict },
    ]);
  try {
    const row = await db.badCase.create({
      data: {
        itemId: item.id,
        runId: run.id,
        sampleId: item.sampleId,
        title: data.title ?? badCaseTitle(item.sample),
        notes: data.notes ?? "",
        attribution: item.attribution,
        createdById: actorRef(actor),
        events: { create: { kind: "created", toStatus: "open", runId: run.id, byId: actorRef(actor) } },
      },
      select: badCaseSelect,
    });
    emitBadCase(db, "created", row);
    return { created: true, badCase: (await badCasesOut(db, [row]))[0]! };
  } catch (e) {
    // someone made it at the same moment (the unique itemId): theirs is the Bad Case
    if (!isUniqueViolation(e)) throw e;
    const existing = await db.badCase.findUnique({ where: { itemId: item.id }, select: badCaseSelect });
    if (!existing) throw e;
    return { created: false, badCase: (await badCasesOut(db, [existing]))[0]! };
  }
}

/** A Bad Case's default title: the question's key and the start of its text. */
const badCaseTitle = (sample: { key: string; question: string }) => `${sample.key}: ${sample.question.slice(0, 120)}`;

/** Failed items made Bad Cases per round trip by createBadCasesForRun. */
const BAD_CASE_BATCH = 500;

/**
 * Every failed item of a run without a Bad Case gets one ("each fail becomes a Bad Case"), BAD_CASE_BATCH at a time:
 * each batch is one insert and one insert of their history events, in one transaction. Idempotent and race-safe like
 * createBadCase: the insert skips an item that got its Bad Case meanwhile (the unique itemId, ON CONFLICT DO NOTHING),
 * so concurrent calls make one Bad Case per item and each counts only the ones it made.
 */
export async function createBadCasesForRun(db: Db, runIdOrShort: string, actor: Principal | null) {
  const run = await resolveRun(db, runIdOrShort);
  const by = actorRef(actor);
  const created: BadCaseRow[] = [];
  for (let after: string | null = null; ; ) {
    const failed: Array<{
      id: string;
      attribution: string | null;
      sampleId: string;
      sample: { key: string; question: string };
    }> = await db.evalRunItem.findMany({
      where: { runId: run.id, verdict: "fail", badCase: null, ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: "asc" },
      take: BAD_CASE_BATCH,
      select: { id: true, attribution: true, sampleId: true, sample: { select: { key: true, question: true } } },
    });
    if (!failed.length) break;
    after = failed.at(-1)!.id;
    const made = await db.$transaction(async (tx) => {
      const rows = await tx.badCase.createManyAndReturn({
        data: failed.map((f) => ({
          itemId: f.id,
          runId: run.id,
          sampleId: f.sampleId,
          title: badCaseTitle(f.sample),
          notes: "",
          attribution: f.attribution,
          createdById: by,
        })),
        skipDuplicates: true, // made by a concurrent call: theirs, not counted here
        select: { id: true },
      });
      if (rows.length)
        await tx.badCaseEvent.createMany({
          data: rows.map((r) => ({ badCaseId: r.id, kind: "created", toStatus: "open", runId: run.id, byId: by })),
        });
      return rows.map((r) => r.id);
    });
    if (made.length)
      created.push(
        ...(await db.badCase.findMany({
          where: { id: { in: made } },
          orderBy: { itemId: "asc" },
          select: badCaseSelect,
        })),
      );
    if (failed.length < BAD_CASE_BATCH) break;
  }
  for (const row of created) emitBadCase(db, "created", row);
  return { created: created.length, items: await badCasesOut(db, created) };
}

export async function listBadCases(db: Db, query: z.input<typeof ListBadCasesQuery>) {
  const q = ListBadCasesQuery.parse(query);
  const rows = await db.badCase.findMany({
    where: {
      AND: [
        q.status ? { status: q.status } : {},
        q.attribution ? { attribution: q.attribution } : {},
        q.runId ? { run: /^r-/i.test(q.runId) ? { shortId: q.runId.toUpperCase() } : { id: q.runId } } : {},
        q.agentId ? { run: { setVersion: { set: { agentId: q.agentId } } } } : {},
        q.setId ? { run: { setVersion: { setId: q.setId } } } : {},
        q.classification
          ? {
              item: {
                OR: [
                  { classification: q.classification },
                  {
                    OR: [{ classification: null }, { classification: "" }],
                    sample: { classification: q.classification },
                  },
                ],
              },
            }
          : {},
      ],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
    ...(q.cursor ? { cursor: { id: q.cursor }, skip: 1 } : {}),
    select: badCaseSelect,
  });
  const items = await badCasesOut(db, rows.slice(0, q.limit));
  return { items, nextCursor: rows.length > q.limit ? (items.at(-1)?.id ?? null) : null };
}

/** One Bad Case with its history (created, every status change with who and, for verified, the run). */
export async function getBadCase(db: Db, id: string) {
  const row = await db.badCase.findUnique({
    where: { id },
    select: {
      ...badCaseSelect,
      events: {
        orderBy: { at: "asc" },
        select: { kind: true, fromStatus: true, toStatus: true, runId: true, reason: true, byId: true, at: true },
      },
    },
  });
  if (!row) throw errors.notFound(`Bad Case ${id}`);
  const { events, ...rest } = row;
  const labels = await actorLabels(db, [rest.createdById, ...events.map((e) => e.byId)]);
  const runIds = [...new Set(events.map((e) => e.runId).filter((r): r is string => !!r))];
  const shortIds = new Map(
    (await db.evalRun.findMany({ where: { id: { in: runIds } }, select: { id: true, shortId: true } })).map((r) => [
      r.id,
      r.shortId,
    ]),
  );
  const run = await db.evalRun.findUniqueOrThrow({ where: { id: rest.runId }, select: { createdAt: true } });
  return {
    ...badCaseOut(rest, labels),
    // the expected points, who passed the question in which later run (the Verify button's basis), the newest re-run
    ...(await badCaseEvidence(db, {
      runCreatedAt: run.createdAt,
      setId: rest.run.setVersion.set.id,
      key: rest.item.sample.key,
      foundInVersion: rest.run.workflowVersion.version,
      sampleId: rest.sampleId,
    })),
    history: events.map((e) => ({
      ...e,
      kind: e.kind as "created" | "status", // the only kinds this module writes
      runShortId: e.runId ? (shortIds.get(e.runId) ?? null) : null,
      byLabel: e.byId ? (labels.get(e.byId) ?? e.byId) : null,
    })),
  };
}

/**
 * Status, title, notes. Every status change is kept as an event (who, when, from, to, the verifying run, the reason).
 * `verified` needs evidence (`verifyingRun`, bad-case-evidence.ts: a human pass, typed or adopted, for the same question
 * in a later run of the set answered in the platform by an agent version newer than the one the Bad Case was found
 * with); the newest such run is recorded (`verifiedRunId`). Or a reason: a manager's (eval.manage) explicit
 * verification, recorded with who and when (`verifiedReason`, the event), with the qualifying run too if there is one.
 * Without either: 409 BAD_CASE_NOT_VERIFIED saying what is missing; a reason from someone without eval.manage: 403.
 */
export async function updateBadCase(
  db: Db,
  id: string,
  input: z.input<typeof UpdateBadCaseInput>,
  actor: Principal | null = null,
) {
  const { reason, ...data } = parseInput(UpdateBadCaseInput, input);
  const current = await db.badCase.findUnique({
    where: { id },
    select: {
      id: true,
      status: true,
      run: {
        select: {
          createdAt: true,
          workflowVersion: { select: { version: true } },
          setVersion: { select: { setId: true } },
        },
      },
      item: { select: { sample: { select: { key: true } } } },
    },
  });
  if (!current) throw errors.notFound(`Bad Case ${id}`);
  const verifying = data.status === "verified" && current.status !== "verified";
  let verifiedRunId: string | null = null;
  if (verifying) {
    if (reason !== undefined && !(actor && can(actor.role, MANAGER))) {
      throw errors.forbidden(
        `Verifying a Bad Case with a reason is a manager's decision (needs ${MANAGER}; your role: ${actor?.role ?? "none"}); without a reason it needs a platform run of a newer agent version with a human pass on the question`,
      );
    }
    const ref = {
      runCreatedAt: current.run.createdAt,
      setId: current.run.setVersion.setId,
      key: current.item.sample.key,
      foundInVersion: current.run.workflowVersion.version,
    };
    const evidence = await verifyingRun(db, ref);
    if (!evidence && reason === undefined) throw await notVerifiable(db, ref);
    verifiedRunId = evidence?.run.id ?? null;
  }
  const changed = data.status !== undefined && data.status !== current.status;
  const row = await db.badCase.update({
    where: { id },
    data: {
      ...data,
      // verified: what it rests on; any other status: nothing (a case verified again needs its evidence again)
      ...(verifying
        ? { verifiedRunId, verifiedReason: reason ?? null }
        : changed
          ? { verifiedRunId: null, verifiedReason: null }
          : {}),
      ...(changed
        ? {
            events: {
              create: {
                kind: "status",
                fromStatus: current.status,
                toStatus: data.status!,
                runId: verifiedRunId,
                reason: verifying ? (reason ?? null) : null,
                byId: actorRef(actor),
              },
            },
          }
        : {}),
    },
    select: badCaseSelect,
  });
  emitBadCase(db, "updated", row, changed ? current.status : null);
  return (await badCasesOut(db, [row]))[0]!;
}

/** Who may verify a Bad Case with a reason instead of a qualifying run: those who manage evaluation (admin, builder). */
const MANAGER = "eval.manage" as const;

/**
 * The 409 of a verification without evidence or reason: what is missing, and why the newest later pass (if any) does
 * not count (pasted answers, not a newer version).
 */
async function notVerifiable(db: Db, ref: { runCreatedAt: Date; setId: string; key: string; foundInVersion: number }) {
  const pass = await db.evalRunItem.findFirst({
    where: {
      sample: { key: ref.key },
      verdict: "pass",
      run: { createdAt: { gt: ref.runCreatedAt }, setVersion: { setId: ref.setId } },
    },
    orderBy: { run: { createdAt: "desc" } },
    select: { run: { select: { shortId: true, mode: true, workflowVersion: { select: { version: true } } } } },
  });
  const latestPass = pass
    ? { runShortId: pass.run.shortId, mode: pass.run.mode, agentVersion: pass.run.workflowVersion.version }
    : null;
  const why = latestPass
    ? notEvidence(latestPass, ref.foundInVersion) === "pasted"
      ? ` (the pass in ${latestPass.runShortId} does not count: its answers were pasted, not answered by the agent)`
      : ` (the pass in ${latestPass.runShortId} does not count: it ran v${latestPass.agentVersion}, not a newer version)`
    : "";
  return evalError(
    "BAD_CASE_NOT_VERIFIED",
    `Not verifiable: needs a platform run of a newer agent version than v${ref.foundInVersion} (the one this Bad Case was found with) with a human pass on ${ref.key}${why}, or a reason (${MANAGER})`,
    [{ key: ref.key, foundInVersion: ref.foundInVersion, latestPass }],
  );
}
