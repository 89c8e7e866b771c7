import type { z } from "zod";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { actorLabels, type Principal, actorRef } from "../auth/service";
import { ApiError, errors } from "../core/errors";
import { badCaseEvidence, verifyingRun } from "./bad-case-evidence";
import { evalErrors, isUniqueViolation } from "./errors";
import { itemOut, itemSelect } from "./items";
import {
  ATTRIBUTIONS,
  ATTRIBUTION_LIST,
  CreateBadCaseInput,
  ListBadCasesQuery,
  UndoVerdictInput,
  UpdateBadCaseInput,
  VerdictInput,
} from "./schemas";
import { inferAttribution, needsSpotCheck, type Suggestion } from "./suggest";
import { maybeComplete, resolveRun } from "./store";

/**
 * Human verdicts (the only thing gates count), bulk adoption of machine suggestions, and Bad Cases.
 * - A verdict is pass or fail; fail needs a basis (text) and an attribution (ATTRIBUTIONS); a classification is
 *   recorded (default: the sample's). Only answered or failed items can be judged.
 * - Every change is kept in VerdictChange: who, when, before, after (source human | adopted).
 * - Bulk adopt writes each pass/fail suggestion as a verdict with source "adopted" (never "human"); unknown
 *   suggestions never become verdicts. Items that already have a verdict are left alone.
 */
type VerdictSnapshot = {
  verdict: "pass" | "fail";
  source: "human" | "adopted";
  basis: string | null;
  attribution: string | null;
  classification: string | null;
};

function snapshot(i: {
  verdict: "pass" | "fail" | null;
  verdictSource: string | null;
  verdictBasis: string | null;
  attribution: string | null;
  classification: string | null;
}): VerdictSnapshot | null {
  if (!i.verdict) return null;
  return {
    verdict: i.verdict,
    source: (i.verdictSource ?? "human") as "human" | "adopted",
    basis: i.verdictBasis,
    attribution: i.attribution,
    classification: i.classification,
  };
}

const same = (a: VerdictSnapshot | null, b: VerdictSnapshot) =>
  !!a &&
  a.verdict === b.verdict &&
  a.source === b.source &&
  a.basis === b.basis &&
  a.attribution === b.attribution &&
  a.classification === b.classification;

export function checkVerdict(input: z.output<typeof VerdictInput>): {
  basis: string | null;
  attribution: string | null;
} {
  if (input.verdict === "pass") return { basis: input.basis?.trim() || null, attribution: null };
  const basis = input.basis?.trim();
  if (!basis)
    throw new ApiError(
      400,
      "VERDICT_BASIS_REQUIRED",
      "A fail verdict needs a basis: say what is wrong with the answer",
      [{ path: "/basis" }],
    );
  if (!input.attribution || !(input.attribution in ATTRIBUTIONS)) {
    throw new ApiError(
      400,
      "VERDICT_ATTRIBUTION_REQUIRED",
      `A fail verdict needs an attribution, one of: ${ATTRIBUTION_LIST.join(", ")}`,
      [{ path: "/attribution", allowed: ATTRIBUTION_LIST }],
    );
  }
  return { basis, attribution: input.attribution };
}

export async function setVerdict(
  db: Db,
  runIdOrShort: string,
  itemId: string,
  input: z.input<typeof VerdictInput>,
  actor: Principal | null,
) {
  const data = VerdictInput.parse(input);
  const run = await resolveRun(db, runIdOrShort);
  const checked = checkVerdict(data);
  const result = await db.$transaction(async (tx) => {
    // One writer per item at a time: the row lock makes read-compare-write atomic, so every change sees the verdict
    // the previous one wrote and the history stays a complete chain (version 1, 2, 3 ...; unique per item).
    const locked = await tx.$queryRaw<
      Array<{ id: string }>
    >`SELECT "id" FROM "EvalRunItem" WHERE "id" = ${itemId} AND "runId" = ${run.id} FOR UPDATE`;
    if (!locked.length) throw errors.notFound(`Item ${itemId} of run ${run.shortId}`);
    const item = await tx.evalRunItem.findUniqueOrThrow({
      where: { id: itemId },
      select: {
        id: true,
        status: true,
        verdict: true,
        verdictSource: true,
        verdictBasis: true,
        attribution: true,
        classification: true,
        verdictVersion: true,
        sample: { select: { classification: true } },
      },
    });
    if (item.status !== "answered" && item.status !== "failed") throw evalErrors.notJudgeable(item.status);
    const before = snapshot(item);
    if (data.expectedVersion !== undefined && data.expectedVersion !== item.verdictVersion) {
      throw evalErrors.verdictConflict(data.expectedVersion, { verdictVersion: item.verdictVersion, verdict: before });
    }
    const after: VerdictSnapshot = {
      verdict: data.verdict,
      source: "human",
      basis: checked.basis,
      attribution: checked.attribution,
      classification: data.classification ?? item.classification ?? item.sample.classification,
    };
    if (same(before, after)) return { changed: false };
    const version = item.verdictVersion + 1;
    await tx.evalRunItem.update({
      where: { id: item.id },
      data: {
        verdict: after.verdict,
        verdictSource: "human",
        verdictBasis: after.basis,
        attribution: after.attribution,
        classification: after.classification,
        verdictById: actorRef(actor),
        verdictAt: new Date(),
        verdictVersion: version,
      },
    });
    await tx.verdictChange.create({
      data: {
        itemId: item.id,
        version,
        before: (before ?? Prisma.DbNull) as Prisma.InputJsonValue,
        after: after as unknown as Prisma.InputJsonValue,
        byId: actorRef(actor),
      },
    });
    return { changed: true };
  });
  await maybeComplete(db, run.id);
  const row = await db.evalRunItem.findUniqueOrThrow({ where: { id: itemId }, select: itemSelect });
  return { ...itemOut(row), changed: result.changed };
}

/**
 * Undo: takes back the caller's own last typed verdict on an item, one step. The item gets the verdict it had before
 * (an adopted one, another person's, or none) and the history keeps both changes: the verdict and its undo (a new
 * change whose `after` carries `undoOf`: the version taken back). Refused (409, nothing written) when anything was
 * written since `version` (VERDICT_CONFLICT), or the item's last change is not the caller's typed verdict
 * (VERDICT_NOT_UNDOABLE: someone else's, an adoption, or an undo itself: there is no redo). A completed run whose
 * item loses its verdict is awaiting review again.
 */
export async function undoVerdict(
  db: Db,
  runIdOrShort: string,
  itemId: string,
  input: z.input<typeof UndoVerdictInput>,
  actor: Principal | null,
) {
  const data = UndoVerdictInput.parse(input);
  const run = await resolveRun(db, runIdOrShort);
  const by = actorRef(actor);
  const notUndoable = (why: string) =>
    new ApiError(409, "VERDICT_NOT_UNDOABLE", `Nothing to undo on this item: ${why}`, [{ version: data.version }]);
  const undone = await db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<
      Array<{ id: string }>
    >`SELECT "id" FROM "EvalRunItem" WHERE "id" = ${itemId} AND "runId" = ${run.id} FOR UPDATE`;
    if (!locked.length) throw errors.notFound(`Item ${itemId} of run ${run.shortId}`);
    const item = await tx.evalRunItem.findUniqueOrThrow({
      where: { id: itemId },
      select: {
        id: true,
        verdict: true,
        verdictSource: true,
        verdictBasis: true,
        attribution: true,
        classification: true,
        verdictVersion: true,
      },
    });
    const current = snapshot(item);
    if (item.verdictVersion !== data.version)
      throw evalErrors.verdictConflict(data.version, { verdictVersion: item.verdictVersion, verdict: current });
    const changes = await tx.verdictChange.findMany({
      where: { itemId, version: { in: [data.version - 1, data.version] } },
      orderBy: { version: "asc" },
    });
    const last = changes.find((c) => c.version === data.version);
    const earlier = changes.find((c) => c.version === data.version - 1) ?? null;
    const after = last?.after as (VerdictSnapshot & { undoOf?: number }) | null | undefined;
    if (!last || !after) throw notUndoable("it has no verdict history");
    if (after.undoOf !== undefined) throw notUndoable("its last change is already an undo (one step only)");
    if (after.source !== "human") throw notUndoable("its last change is an adoption, not a typed verdict");
    if (!by || last.byId !== by) throw notUndoable("its last verdict was written by someone else");
    const restored = (last.before ?? null) as VerdictSnapshot | null;
    const version = item.verdictVersion + 1;
    await tx.evalRunItem.update({
      where: { id: item.id },
      data: {
        verdict: restored?.verdict ?? null,
        verdictSource: restored?.source ?? null,
        verdictBasis: restored?.basis ?? null,
        attribution: restored?.attribution ?? null,
        classification: restored ? restored.classification : item.classification,
        verdictById: restored ? (earlier?.byId ?? null) : null,
        verdictAt: restored ? (earlier?.at ?? null) : null,
        verdictVersion: version,
      },
    });
    await tx.verdictChange.create({
      data: {
        itemId: item.id,
        version,
        before: (current ?? Prisma.DbNull) as Prisma.InputJsonValue,
        after: (restored
          ? { ...restored, undoOf: data.version }
          : { verdict: null, undoOf: data.version }) as unknown as Prisma.InputJsonValue,
        byId: by,
      },
    });
    if (!restored)
      await tx.evalRun.updateMany({
        where: { id: run.id, status: "completed" },
        data: { status: "awaiting_review", completedAt: null },
      });
    return data.version;
  });
  await maybeComplete(db, run.id);
  const row = await db.evalRunItem.findUniqueOrThrow({ where: { id: itemId }, select: itemSelect });
  return { ...itemOut(row), undone };
}

/** Writes every pass/fail suggestion as an adopted verdict, then lists the items to spot-check. */
export async function adoptSuggestions(db: Db, runIdOrShort: string, actor: Principal | null) {
  const run = await resolveRun(db, runIdOrShort);
  const items = await db.evalRunItem.findMany({
    where: { runId: run.id },
    select: { id: true, status: true, verdict: true, suggestion: true, sample: { select: { classification: true } } },
  });
  let unknown = 0;
  let noSuggestion = 0;
  let alreadyJudged = 0;
  const toAdopt: Array<{ id: string; after: VerdictSnapshot }> = [];
  for (const i of items) {
    const s = i.suggestion as Suggestion | null;
    if (i.verdict) alreadyJudged++;
    else if (!s || (i.status !== "answered" && i.status !== "failed")) noSuggestion++;
    else if (s.verdict === "unknown") unknown++;
    else
      toAdopt.push({
        id: i.id,
        after: {
          verdict: s.verdict,
          source: "adopted",
          basis: s.verdict === "fail" ? `adopted machine suggestion: ${s.rationale}`.slice(0, 4000) : null,
          attribution: s.verdict === "fail" ? inferAttribution(s) : null,
          classification: i.sample.classification,
        },
      });
  }
  const by = actorRef(actor);
  const now = new Date();
  await db.$transaction(
    async (tx) => {
      for (let i = 0; i < toAdopt.length; i += 1000) {
        const chunk = JSON.stringify(toAdopt.slice(i, i + 1000).map((a) => ({ id: a.id, ...a.after })));
        // `verdict IS NULL` keeps a human verdict typed meanwhile; each adopted verdict gets its history row
        await tx.$executeRaw`
          WITH x AS (
            SELECT * FROM jsonb_to_recordset(${chunk}::jsonb) AS x("id" text, "verdict" text, "basis" text, "attribution" text, "classification" text)
          ), upd AS (
            UPDATE "EvalRunItem" AS i SET "verdict" = x."verdict"::"Verdict", "verdictSource" = 'adopted', "verdictBasis" = x."basis",
              "attribution" = x."attribution", "classification" = x."classification", "verdictById" = ${by}::text, "verdictAt" = ${now}::timestamp,
              "verdictVersion" = i."verdictVersion" + 1
            FROM x WHERE i."id" = x."id" AND i."runId" = ${run.id} AND i."verdict" IS NULL
            RETURNING i."id", i."verdictVersion", x."verdict", x."basis", x."attribution", x."classification"
          )
          INSERT INTO "VerdictChange" ("id", "itemId", "version", "before", "after", "byId", "at")
          SELECT 'c' || md5(random()::text || clock_timestamp()::text || upd."id"), upd."id", upd."verdictVersion", NULL,
            jsonb_build_object('verdict', upd."verdict", 'source', 'adopted', 'basis', upd."basis", 'attribution', upd."attribution", 'classification', upd."classification"),
            ${by}::text, ${now}::timestamp
          FROM upd`;
      }
    },
    { timeout: 120_000 },
  );
  await maybeComplete(db, run.id);
  const spot = await db.evalRunItem.findMany({
    where: { runId: run.id },
    orderBy: [{ sample: { position: "asc" } }],
    select: itemSelect,
  });
  const spotCheck = spot
    .filter(
      (i) =>
        needsSpotCheck(i.suggestion as Suggestion | null) ||
        (!i.verdict && (i.status === "answered" || i.status === "failed")),
    )
    .map(itemOut);
  return { adopted: toAdopt.length, skipped: { unknown, noSuggestion, alreadyJudged }, spotCheck };
}

// ---------------------------------------------------------------- bad cases

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
  run: {
    select: { shortId: true, setVersion: { select: { set: { select: { id: true, name: true, agentId: true } } } } },
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
        select: { kind: true, fromStatus: true, toStatus: true, runId: true, byId: true, at: true },
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
      sampleId: rest.sampleId,
    })),
    history: events.map((e) => ({
      ...e,
      runShortId: e.runId ? (shortIds.get(e.runId) ?? null) : null,
      byLabel: e.byId ? (labels.get(e.byId) ?? e.byId) : null,
    })),
  };
}

/**
 * Status, title, notes. Every status change is kept as an event (who, when, from, to). `verified` needs evidence: a
 * later run of the same set (created after the Bad Case's run) whose item for the same question (sample key) has a
 * pass verdict, human-confirmed as gates count it (typed or adopted; a machine suggestion alone never); the newest such
 * run is recorded (`verifiedRunId`). Without one: 409 BAD_CASE_NOT_VERIFIED.
 */
export async function updateBadCase(
  db: Db,
  id: string,
  input: z.input<typeof UpdateBadCaseInput>,
  actor: Principal | null = null,
) {
  const data = UpdateBadCaseInput.parse(input);
  const current = await db.badCase.findUnique({
    where: { id },
    select: {
      id: true,
      status: true,
      run: { select: { createdAt: true, setVersion: { select: { setId: true } } } },
      item: { select: { sample: { select: { key: true } } } },
    },
  });
  if (!current) throw errors.notFound(`Bad Case ${id}`);
  let verifiedRunId: string | undefined;
  if (data.status === "verified" && current.status !== "verified") {
    const key = current.item.sample.key;
    const evidence = await verifyingRun(db, {
      runCreatedAt: current.run.createdAt,
      setId: current.run.setVersion.setId,
      key,
    });
    if (!evidence) {
      throw new ApiError(
        409,
        "BAD_CASE_NOT_VERIFIED",
        `No run of the set after this Bad Case has a human pass for ${key}: re-run the same batch on the fixed agent, judge ${key}, then verify`,
        [{ key }],
      );
    }
    verifiedRunId = evidence.run.id;
  }
  const changed = data.status !== undefined && data.status !== current.status;
  const row = await db.badCase.update({
    where: { id },
    data: {
      ...data,
      ...(verifiedRunId ? { verifiedRunId } : data.status && data.status !== "verified" ? { verifiedRunId: null } : {}),
      ...(changed
        ? {
            events: {
              create: {
                kind: "status",
                fromStatus: current.status,
                toStatus: data.status!,
                runId: verifiedRunId ?? null,
                byId: actorRef(actor),
              },
            },
          }
        : {}),
    },
    select: badCaseSelect,
  });
  return (await badCasesOut(db, [row]))[0]!;
}
