import type { z } from "zod";
import type { Db } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { type Principal, actorRef } from "../../auth/service";
import { ApiError, errors } from "../../core/errors";
import { evalErrors } from "../errors";
import { itemOut, itemSelect } from "../runs/item-rows";
import { ATTRIBUTIONS, ATTRIBUTION_LIST, AdjudicationInput, UndoVerdictInput, VerdictInput } from "./schemas";
import { ADOPTED_REVIEWER, finalVerdictOf, reviewStateOf, type Review, type ReviewState } from "../runs/reviews";
import { inferAttribution, needsSpotCheck, type Suggestion } from "../suggestions/suggest";
import { maybeComplete, resolveRun } from "../runs/run-rows";
import { drawAudit } from "./audit";
import { itemOrder } from "../runs/items";
import { dropReservation } from "../runs/reservations";

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
  if (run.reviewsPerItem > 1) return setReview(db, run, itemId, data, checked, actor);
  const result = await db.$transaction(async (tx) => {
    await lockItem(tx, run, itemId);
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
  // a verdict releases the reviewer's reservation of the item (runs/reservations.ts)
  await dropReservation(db, itemId, reviewerOf(actor));
  const row = await db.evalRunItem.findUniqueOrThrow({ where: { id: itemId }, select: itemSelect });
  return { ...itemOut(row, actorRef(actor)), changed: result.changed };
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
  if (run.reviewsPerItem > 1) return undoReview(db, run, itemId, data.version, actor);
  const by = actorRef(actor);
  const notUndoable = (why: string) =>
    new ApiError(409, "VERDICT_NOT_UNDOABLE", `Nothing to undo on this item: ${why}`, [{ version: data.version }]);
  const undone = await db.$transaction(async (tx) => {
    await lockItem(tx, run, itemId);
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
  return { ...itemOut(row, by), undone };
}

/** Writes every pass/fail suggestion as an adopted verdict, then lists the items to spot-check. */
export async function adoptSuggestions(db: Db, runIdOrShort: string, actor: Principal | null) {
  const run = await resolveRun(db, runIdOrShort);
  if (run.reviewsPerItem > 1) return adoptAsReviews(db, run, actor);
  const items = await db.evalRunItem.findMany({
    where: { runId: run.id },
    select: { id: true, status: true, verdict: true, suggestion: true, sample: { select: { classification: true } } },
  });
  let unknown = 0;
  let noSuggestion = 0;
  let alreadyJudged = 0;
  const toAdopt: Array<{ id: string; after: VerdictSnapshot }> = [];
  // the passes the spot-check rule leaves to the machine: the audit's population (audit.ts)
  const plainPasses = new Set<string>();
  for (const i of items) {
    const s = i.suggestion as Suggestion | null;
    if (i.verdict) alreadyJudged++;
    else if (!s || (i.status !== "answered" && i.status !== "failed")) noSuggestion++;
    else if (s.verdict === "unknown") unknown++;
    else {
      if (s.verdict === "pass" && !needsSpotCheck(s)) plainPasses.add(i.id);
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
  }
  const by = actorRef(actor);
  const now = new Date();
  const audit = await db.$transaction(
    async (tx) => {
      const written: string[] = [];
      for (let i = 0; i < toAdopt.length; i += 1000) {
        const chunk = JSON.stringify(toAdopt.slice(i, i + 1000).map((a) => ({ id: a.id, ...a.after })));
        // `verdict IS NULL` keeps a human verdict typed meanwhile; each adopted verdict gets its history row
        const rows = await tx.$queryRaw<Array<{ itemId: string }>>`
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
          FROM upd
          RETURNING "itemId"`;
        for (const r of rows) written.push(r.itemId);
      }
      // the audit draws from the passes this adoption wrote (not those a person judged meanwhile), in the same
      // transaction: an adoption and its audit are stored together or not at all
      return drawAudit(
        tx,
        run,
        written.filter((id) => plainPasses.has(id)),
        by,
      );
    },
    { timeout: 120_000 },
  );
  await maybeComplete(db, run.id);
  const spot = await db.evalRunItem.findMany({
    where: { runId: run.id },
    orderBy: itemOrder,
    select: itemSelect,
  });
  return {
    adopted: toAdopt.length,
    skipped: { unknown, noSuggestion, alreadyJudged },
    spotCheck: spotCheckOf(spot, by),
    audit,
  };
}

/**
 * The items to spot-check after an adoption: suggestion fail or unknown or flagged, the audit's items (adopted passes
 * drawn for a person to check), and the answered ones without a verdict.
 */
function spotCheckOf(rows: Array<Parameters<typeof itemOut>[0]>, viewer: string | null) {
  return rows
    .filter(
      (i) =>
        needsSpotCheck(i.suggestion as Suggestion | null) ||
        i.auditId !== null ||
        (!i.verdict && (i.status === "answered" || i.status === "failed")),
    )
    .map((i) => itemOut(i, viewer));
}

/**
 * Locks one item's row for the rest of the transaction (one writer per item: read-compare-write is atomic and the
 * verdict history stays a complete chain); a missing item, or one of another run, is a 404.
 */
async function lockItem(tx: Prisma.TransactionClient, run: { id: string; shortId: string }, itemId: string) {
  const locked = await tx.$queryRaw<
    Array<{ id: string }>
  >`SELECT "id" FROM "EvalRunItem" WHERE "id" = ${itemId} AND "runId" = ${run.id} FOR UPDATE`;
  if (!locked.length) throw errors.notFound(`Item ${itemId} of run ${run.shortId}`);
}

// ---------------------------------------------------------------- several reviewers per item (runs/reviews.ts)

type Run = Awaited<ReturnType<typeof resolveRun>>;
type ReviewSnap = Omit<Review, "reviewerId" | "at">;
/**
 * What a change of an item with several reviewers records as `before` and `after`: the final verdict (null while open
 * or disputed), the review state and every review by reviewer. Each change's `before` is the previous one's `after`,
 * so the history is a complete chain and says who reviewed what, when.
 */
type ReviewedSnapshot = {
  verdict: "pass" | "fail" | null;
  source: "human" | "adopted" | null;
  basis: string | null;
  attribution: string | null;
  classification: string | null;
  state: ReviewState;
  reviews: Record<string, ReviewSnap>;
  undoOf?: number;
};

const reviewedItemSelect = {
  id: true,
  status: true,
  verdict: true,
  verdictSource: true,
  verdictBasis: true,
  attribution: true,
  classification: true,
  verdictById: true,
  verdictAt: true,
  verdictVersion: true,
  disputed: true,
  adjudicatedById: true,
  adjudicatedAt: true,
  sample: { select: { classification: true } },
  reviews: {
    select: {
      reviewerId: true,
      verdict: true,
      source: true,
      basis: true,
      attribution: true,
      classification: true,
      at: true,
    },
  },
} as const;
type ReviewedItem = Prisma.EvalRunItemGetPayload<{ select: typeof reviewedItemSelect }>;

const reviewsOf = (item: ReviewedItem): Review[] =>
  item.reviews.map((r) => ({ ...r, source: r.source === "adopted" ? "adopted" : "human" }));

function reviewedSnapshot(
  final: Omit<ReviewedSnapshot, "state" | "reviews"> | null,
  state: ReviewState,
  reviews: Review[],
): ReviewedSnapshot {
  return {
    verdict: final?.verdict ?? null,
    source: final?.source ?? null,
    basis: final?.basis ?? null,
    attribution: final?.attribution ?? null,
    classification: final?.classification ?? null,
    state,
    reviews: Object.fromEntries(
      [...reviews]
        .sort((a, b) => a.at.getTime() - b.at.getTime())
        .map((r) => [
          r.reviewerId,
          {
            verdict: r.verdict,
            source: r.source,
            basis: r.basis,
            attribution: r.attribution,
            classification: r.classification,
          },
        ]),
    ),
  };
}

/** The item as it stands, as a history snapshot (null before its first change). */
function currentSnapshot(item: ReviewedItem, needed: number): ReviewedSnapshot | null {
  if (item.verdictVersion === 0) return null;
  const reviews = reviewsOf(item);
  return reviewedSnapshot(snapshot(item), reviewStateOf(item, reviews, needed), reviews);
}

const decidedOf = (item: ReviewedItem) => ({
  verdict: snapshot(item),
  byId: item.adjudicatedById,
  at: item.adjudicatedAt,
});

async function loadReviewed(tx: Prisma.TransactionClient, run: Run, itemId: string) {
  await lockItem(tx, run, itemId);
  return tx.evalRunItem.findUniqueOrThrow({ where: { id: itemId }, select: reviewedItemSelect });
}

/**
 * Writes (review) or takes back (null) one reviewer's review of a locked item, recomputes its final verdict
 * (`finalVerdictOf`) and records the change (one VerdictChange, the next version). Returns false when nothing differs.
 */
async function writeReview(
  tx: Prisma.TransactionClient,
  run: Run,
  item: ReviewedItem,
  reviewerId: string,
  review: ReviewSnap | null,
  byId: string | null,
  undoOf?: number,
): Promise<boolean> {
  const reviews = reviewsOf(item);
  const mine = reviews.find((r) => r.reviewerId === reviewerId) ?? null;
  if (
    review &&
    mine &&
    mine.verdict === review.verdict &&
    mine.source === review.source &&
    mine.basis === review.basis &&
    mine.attribution === review.attribution &&
    mine.classification === review.classification
  )
    return false;
  if (!review && !mine) return false;
  const before = currentSnapshot(item, run.reviewsPerItem);
  const now = new Date();
  const others = reviews.filter((r) => r.reviewerId !== reviewerId);
  const after = review ? [...others, { ...review, reviewerId, at: now }] : others;
  if (review)
    await tx.evalReview.upsert({
      where: { itemId_reviewerId: { itemId: item.id, reviewerId } },
      create: { itemId: item.id, reviewerId, ...review, at: now },
      update: { ...review, at: now },
    });
  else await tx.evalReview.delete({ where: { itemId_reviewerId: { itemId: item.id, reviewerId } } });
  const outcome = finalVerdictOf(after, run.reviewsPerItem);
  const final = outcome.state === "agreed" ? outcome : null;
  const version = item.verdictVersion + 1;
  await tx.evalRunItem.update({
    where: { id: item.id },
    data: {
      verdict: final?.verdict ?? null,
      verdictSource: final?.source ?? null,
      verdictBasis: final?.basis ?? null,
      attribution: final?.attribution ?? null,
      classification: final ? final.classification : item.classification,
      verdictById: final?.byId ?? null,
      verdictAt: final?.at ?? null,
      disputed: outcome.state === "disputed",
      verdictVersion: version,
    },
  });
  const afterSnapshot = {
    ...reviewedSnapshot(final, outcome.state, after),
    ...(undoOf !== undefined ? { undoOf } : {}),
  };
  await tx.verdictChange.create({
    data: {
      itemId: item.id,
      version,
      before: (before ?? Prisma.DbNull) as Prisma.InputJsonValue,
      after: afterSnapshot as unknown as Prisma.InputJsonValue,
      byId,
    },
  });
  // a completed run whose item lost its final verdict (a reviewer changed their mind) awaits review again
  if (!final)
    await tx.evalRun.updateMany({
      where: { id: run.id, status: "completed" },
      data: { status: "awaiting_review", completedAt: null },
    });
  return true;
}

/** The person a verdict is from: a user (an API token reviews as the user who owns it), else the ownerless token. */
const reviewerOf = (actor: Principal | null) => actorRef(actor) ?? "(unknown)";

async function setReview(
  db: Db,
  run: Run,
  itemId: string,
  data: z.output<typeof VerdictInput>,
  checked: { basis: string | null; attribution: string | null },
  actor: Principal | null,
) {
  const reviewer = reviewerOf(actor);
  const changed = await db.$transaction(async (tx) => {
    const item = await loadReviewed(tx, run, itemId);
    if (item.status !== "answered" && item.status !== "failed") throw evalErrors.notJudgeable(item.status);
    if (data.expectedVersion !== undefined && data.expectedVersion !== item.verdictVersion)
      throw evalErrors.verdictConflict(data.expectedVersion, {
        verdictVersion: item.verdictVersion,
        verdict: snapshot(item),
      });
    if (item.adjudicatedAt) throw evalErrors.adjudicated(decidedOf(item));
    const mine = item.reviews.some((r) => r.reviewerId === reviewer);
    if (!mine && item.reviews.length >= run.reviewsPerItem) throw evalErrors.reviewsComplete(run.reviewsPerItem);
    return writeReview(
      tx,
      run,
      item,
      reviewer,
      {
        verdict: data.verdict,
        source: "human",
        basis: checked.basis,
        attribution: checked.attribution,
        classification: data.classification ?? item.classification ?? item.sample.classification,
      },
      actorRef(actor),
    );
  });
  await maybeComplete(db, run.id);
  await dropReservation(db, itemId, reviewer);
  const row = await db.evalRunItem.findUniqueOrThrow({ where: { id: itemId }, select: itemSelect });
  return { ...itemOut(row, reviewer), changed };
}

/** Undo on a run with several reviewers: takes back the caller's own last review (one step; see undoVerdict). */
async function undoReview(db: Db, run: Run, itemId: string, version: number, actor: Principal | null) {
  const reviewer = reviewerOf(actor);
  const by = actorRef(actor);
  const notUndoable = (why: string) =>
    new ApiError(409, "VERDICT_NOT_UNDOABLE", `Nothing to undo on this item: ${why}`, [{ version }]);
  await db.$transaction(async (tx) => {
    const item = await loadReviewed(tx, run, itemId);
    if (item.verdictVersion !== version)
      throw evalErrors.verdictConflict(version, { verdictVersion: item.verdictVersion, verdict: snapshot(item) });
    if (item.adjudicatedAt) throw evalErrors.adjudicated(decidedOf(item));
    const last = await tx.verdictChange.findUnique({ where: { itemId_version: { itemId, version } } });
    const after = last?.after as ReviewedSnapshot | null | undefined;
    if (!last || !after) throw notUndoable("it has no verdict history");
    if (after.undoOf !== undefined) throw notUndoable("its last change is already an undo (one step only)");
    if (!by || last.byId !== by) throw notUndoable("its last change was written by someone else");
    const before = (last.before ?? null) as ReviewedSnapshot | null;
    if (!after.reviews?.[reviewer] || after.reviews[reviewer]?.source !== "human")
      throw notUndoable("its last change is not your typed verdict");
    await writeReview(tx, run, item, reviewer, before?.reviews?.[reviewer] ?? null, by, version);
  });
  await maybeComplete(db, run.id);
  const row = await db.evalRunItem.findUniqueOrThrow({ where: { id: itemId }, select: itemSelect });
  return { ...itemOut(row, reviewer), undone: version };
}

/**
 * Adoption on a run with several reviewers: each pass/fail suggestion becomes the item's adopted review (reviewer
 * `adopted`: at most one of its reviews), on items that are not decided, not disputed, and still miss a review.
 */
async function adoptAsReviews(db: Db, run: Run, actor: Principal | null) {
  const items = await db.evalRunItem.findMany({
    where: { runId: run.id },
    select: {
      id: true,
      status: true,
      verdict: true,
      disputed: true,
      adjudicatedAt: true,
      suggestion: true,
      sample: { select: { classification: true } },
      reviews: { select: { reviewerId: true } },
    },
  });
  let adopted = 0;
  let unknown = 0;
  let noSuggestion = 0;
  let alreadyJudged = 0;
  const by = actorRef(actor);
  for (const i of items) {
    const s = i.suggestion as Suggestion | null;
    const open =
      !i.verdict &&
      !i.disputed &&
      !i.adjudicatedAt &&
      i.reviews.length < run.reviewsPerItem &&
      !i.reviews.some((r) => r.reviewerId === ADOPTED_REVIEWER);
    if (!open) alreadyJudged++;
    else if (!s || (i.status !== "answered" && i.status !== "failed")) noSuggestion++;
    else if (s.verdict === "unknown") unknown++;
    else {
      const verdict = s.verdict;
      const wrote = await db.$transaction(async (tx) => {
        const item = await loadReviewed(tx, run, i.id);
        // re-checked under the lock: a person may have reviewed meanwhile
        if (item.verdict || item.disputed || item.adjudicatedAt || item.reviews.length >= run.reviewsPerItem)
          return false;
        if (item.reviews.some((r) => r.reviewerId === ADOPTED_REVIEWER)) return false;
        return writeReview(
          tx,
          run,
          item,
          ADOPTED_REVIEWER,
          {
            verdict,
            source: "adopted",
            basis: verdict === "fail" ? `adopted machine suggestion: ${s.rationale}`.slice(0, 4000) : null,
            attribution: verdict === "fail" ? inferAttribution(s) : null,
            classification: i.sample.classification,
          },
          by,
        );
      });
      if (wrote) adopted++;
      else alreadyJudged++;
    }
  }
  await maybeComplete(db, run.id);
  const spot = await db.evalRunItem.findMany({
    where: { runId: run.id },
    orderBy: itemOrder,
    select: itemSelect,
  });
  // no audit here: an adopted review is at most one of an item's reviews, so every final verdict includes a person's
  return { adopted, skipped: { unknown, noSuggestion, alreadyJudged }, spotCheck: spotCheckOf(spot, by), audit: null };
}

/**
 * Adjudication: an adjudicator (eval.adjudicate) decides a disputed item; their verdict, which needs a basis
 * whatever it is (and an attribution for a fail), is final. The reviews stay as they were. Two adjudicators at once:
 * the item's row lock orders them, the first wins and the second gets 409 ADJUDICATION_CONFLICT with the winner's
 * verdict (nothing written).
 */
export async function adjudicate(
  db: Db,
  runIdOrShort: string,
  itemId: string,
  input: z.input<typeof AdjudicationInput>,
  actor: Principal | null,
) {
  const data = AdjudicationInput.parse(input);
  const run = await resolveRun(db, runIdOrShort);
  if (!data.basis?.trim())
    throw new ApiError(
      400,
      "VERDICT_BASIS_REQUIRED",
      "An adjudication needs a basis: say why this verdict decides the dispute",
      [{ path: "/basis" }],
    );
  const checked = checkVerdict(data);
  const by = actorRef(actor);
  await db.$transaction(async (tx) => {
    const item = await loadReviewed(tx, run, itemId);
    if (item.adjudicatedAt) throw evalErrors.adjudicationConflict(decidedOf(item));
    const reviews = reviewsOf(item);
    if (run.reviewsPerItem <= 1 || !item.disputed)
      throw evalErrors.notDisputed(
        run.reviewsPerItem <= 1 ? "one reviewer per item" : reviewStateOf(item, reviews, run.reviewsPerItem),
      );
    const before = currentSnapshot(item, run.reviewsPerItem);
    const now = new Date();
    const final = {
      verdict: data.verdict,
      source: "human" as const,
      basis: checked.basis,
      attribution: checked.attribution,
      classification: data.classification ?? item.classification ?? item.sample.classification,
    };
    const version = item.verdictVersion + 1;
    await tx.evalRunItem.update({
      where: { id: item.id },
      data: {
        verdict: final.verdict,
        verdictSource: "human",
        verdictBasis: final.basis,
        attribution: final.attribution,
        classification: final.classification,
        verdictById: by,
        verdictAt: now,
        disputed: false,
        adjudicatedById: by,
        adjudicatedAt: now,
        verdictVersion: version,
      },
    });
    await tx.verdictChange.create({
      data: {
        itemId: item.id,
        version,
        before: (before ?? Prisma.DbNull) as Prisma.InputJsonValue,
        after: reviewedSnapshot(final, "adjudicated", reviews) as unknown as Prisma.InputJsonValue,
        byId: by,
      },
    });
  });
  await maybeComplete(db, run.id);
  const row = await db.evalRunItem.findUniqueOrThrow({ where: { id: itemId }, select: itemSelect });
  return itemOut(row, by);
}
