/**
 * Reserved and assigned queues (issue 23), persistence: the next item reserved for a person, renewing and releasing
 * a reservation, assigning a run's items to people, and each person's part in a run's progress. The rules are in
 * `reservation-rules.ts` (pure).
 *
 * THE claim is one atomic statement: `UPDATE "EvalRunItem" ... WHERE id = (SELECT ... FOR UPDATE SKIP LOCKED LIMIT 1)`.
 * Every condition that concurrent claims change (the live reservations) is on the item row itself, so a caller
 * whose snapshot predates another's committed claim re-checks the row's newest version when it locks it (PostgreSQL
 * re-evaluates a locked row that changed), and a row another caller is claiming right now is skipped rather than
 * waited for. The candidates are read in the same short transaction, just before the UPDATE (see `claimNextItem`).
 */
import { randomInt } from "node:crypto";
import type { z } from "zod";
import type { Db } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { errors } from "../../core/errors";
import { actorLabels } from "../../auth/service";
import { itemOrder, itemsWhere, openWhere, reviewProgress } from "./items";
import { type QueueRow, queueRowOut } from "./item-rows";
import { resolveRun, runKey } from "./run-rows";
import { ADOPTED_REVIEWER } from "./reviews";
import { RESERVATION_MS, itemsPerHour, liveReservations, splitItems } from "./reservation-rules";
import { AssigneesInput, QueueFilterQuery } from "./schemas";

/** Candidate items read per claim attempt, in queue order. */
const CLAIM_BATCH = 50;
export const SPLIT_ALGORITHM = "mulberry32-fisher-yates-dealt";

const who = (viewer: string | null) => viewer ?? "(unknown)";

/**
 * The SET of a statement that gives `me` a place on the item row `i` until `until` (a claim or a renewal): its
 * expired entries and `me`'s old one dropped, `me`'s new one added; and `fullUntil`, the time until which the row is
 * known full (its live reservations plus its reviews fill `needed`): the earliest of their ends, when they fill it.
 * Both read `i`, the row's newest version once the statement has locked it.
 */
function placeFor(me: string, now: number, until: number, needed: number) {
  const others = Prisma.sql`(SELECT e FROM jsonb_array_elements(i."reservations") e
    WHERE (e->>'until')::bigint > ${now}::bigint AND e->>'by' <> ${me}::text)`;
  return Prisma.sql`"reservations" = COALESCE((SELECT jsonb_agg(o.e) FROM ${others} AS o(e)), '[]'::jsonb)
      || jsonb_build_array(jsonb_build_object('by', ${me}::text, 'until', ${until}::bigint)),
    "fullUntil" = CASE
      WHEN (SELECT count(*) FROM ${others} AS o(e)) + 1
        + (SELECT count(*) FROM "EvalReview" r WHERE r."itemId" = i."id") >= ${needed}::int
      THEN LEAST(${until}::bigint, (SELECT min((o.e->>'until')::bigint) FROM ${others} AS o(e)))
      ELSE NULL END`;
}

/** The claimed row as the statement returns it: the item's columns of `queueSelect`, its relations flattened. */
type ClaimedRow = Omit<QueueRow, "reviews" | "run" | "sample" | "badCase"> & {
  reviews: Array<{ reviewerId: string; verdict: QueueRow["reviews"][number]["verdict"] }>;
  key: string;
  samplePosition: number;
  question: string;
  sampleClassification: string;
  badCaseId: string | null;
  badCaseStatus: NonNullable<QueueRow["badCase"]>["status"] | null;
};

/**
 * Claims the first of `ids` (in that order) that `me` may reserve now, in one statement, and returns it as a queue
 * row (`queueSelect`'s shape, read in the same statement: a claim is the queue's hot path, and five reads of the row
 * and its relations after it were half its statements), or null.
 * May: not disputed, not reviewed by `me`, no live reservation of `me`, and live reservations plus reviews fewer
 * than the run's reviewsPerItem. The row's expired reservations are dropped as it is written.
 */
async function claimAmong(
  db: Prisma.TransactionClient,
  ids: string[],
  me: string,
  needed: number,
  now: number,
): Promise<QueueRow | null> {
  const rows = await db.$queryRaw<ClaimedRow[]>`
    WITH claimed AS (
    UPDATE "EvalRunItem" AS i
    SET ${placeFor(me, now, now + RESERVATION_MS, needed)}
    WHERE i."id" = (
      SELECT c."id" FROM "EvalRunItem" c
      WHERE c."id" = ANY(${ids}::text[])
        AND NOT c."disputed"
        AND NOT EXISTS (SELECT 1 FROM "EvalReview" r WHERE r."itemId" = c."id" AND r."reviewerId" = ${me}::text)
        AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(c."reservations") e
          WHERE e->>'by' = ${me}::text AND (e->>'until')::bigint > ${now}::bigint)
        AND (SELECT count(*) FROM jsonb_array_elements(c."reservations") e WHERE (e->>'until')::bigint > ${now}::bigint)
          + (SELECT count(*) FROM "EvalReview" r WHERE r."itemId" = c."id") < ${needed}::int
      ORDER BY array_position(${ids}::text[], c."id")
      LIMIT 1
      FOR UPDATE SKIP LOCKED)
    RETURNING i.*)
    SELECT c."id", c."status"::text AS "status", c."suggestion", c."verdict"::text AS "verdict", c."verdictSource",
      c."classification", c."disputed", c."auditId", c."assigneeId", c."reservations",
      COALESCE((SELECT jsonb_agg(jsonb_build_object('reviewerId', r."reviewerId", 'verdict', r."verdict"))
        FROM "EvalReview" r WHERE r."itemId" = c."id"), '[]'::jsonb) AS "reviews",
      s."key", s."position" AS "samplePosition", s."question", s."classification" AS "sampleClassification",
      b."id" AS "badCaseId", b."status"::text AS "badCaseStatus"
    FROM claimed c JOIN "EvalSample" s ON s."id" = c."sampleId" LEFT JOIN "BadCase" b ON b."itemId" = c."id"`;
  const r = rows[0];
  if (!r) return null;
  const { key, samplePosition, question, sampleClassification, badCaseId, badCaseStatus, ...item } = r;
  return {
    ...item,
    run: { reviewsPerItem: needed },
    sample: { key, position: samplePosition, question, classification: sampleClassification },
    badCase: badCaseId && badCaseStatus ? { id: badCaseId, status: badCaseStatus } : null,
  };
}

/**
 * The next item of the queue (its filters) reserved for `viewer` for RESERVATION_MS: first among the items assigned
 * to them, then the unassigned ones, then the others' (marked `queue.assignedToOther`); in queue order within each.
 * Only items a person can judge (answered or failed) and still to do for them (`openWhere`). `noneLeft` when none.
 */
export async function claimNextItem(
  db: Db,
  idOrShort: string,
  filters: z.input<typeof QueueFilterQuery>,
  viewer: string | null,
) {
  const q = QueueFilterQuery.parse(filters);
  const run = await db.evalRun.findUnique({
    where: runKey(idOrShort),
    select: { id: true, reviewsPerItem: true, assignment: true },
  });
  if (!run) throw errors.notFound(`Run ${idOrShort}`);
  const me = who(viewer);
  const base: Prisma.EvalRunItemWhereInput = {
    AND: [itemsWhere(run.id, q), openWhere(q, me), { status: { in: ["answered", "failed"] } }],
  };
  // the three groups only when the run is assigned (`assignment` is stored with its items' people, in one batch)
  const people = (run.assignment as { userIds?: string[] } | null)?.userIds ?? [];
  const passes: Prisma.EvalRunItemWhereInput[] = people.length
    ? [
        ...(people.includes(me) ? [{ assigneeId: me }] : []),
        { assigneeId: null },
        { assigneeId: { not: null }, NOT: { assigneeId: me } },
      ]
    : [{}];
  // One transaction, so the candidates are read just before the claim on the same connection: read first and
  // claimed after a wait for the pool, they would be stale under many callers (every one of them taken by then).
  // Held for a few milliseconds; it waits for a connection as long as the pool makes it.
  const claimed = await db.$transaction(
    async (tx) => {
      for (const [pass, where] of passes.entries()) {
        // in queue order, a batch at a time, leaving out the rows known full now (`fullUntil`); the next batch starts
        // after the last one read, by its place (position, id), not by an offset or Prisma's cursor: the rows known
        // full change under the reads, and a cursor row the filter now leaves out would make `skip: 1` drop another
        let after: { position: number; id: string } | null = null;
        for (;;) {
          const now = Date.now();
          const beyond: Prisma.EvalRunItemWhereInput[] = after
            ? [{ OR: [{ position: { gt: after.position } }, { position: after.position, id: { gt: after.id } }] }]
            : [];
          const batch: Array<{ id: string; position: number }> = await tx.evalRunItem.findMany({
            where: {
              AND: [base, where, ...beyond, { OR: [{ fullUntil: null }, { fullUntil: { lte: BigInt(now) } }] }],
            },
            orderBy: itemOrder,
            take: CLAIM_BATCH,
            select: { id: true, position: true },
          });
          if (batch.length === 0) break;
          const row = await claimAmong(
            tx,
            batch.map((b) => b.id),
            me,
            run.reviewsPerItem,
            now,
          );
          if (row) return { row, mine: people.includes(me) && pass === 0 };
          if (batch.length < CLAIM_BATCH) break;
          after = batch.at(-1)!;
        }
      }
      return null;
    },
    { maxWait: 120_000, timeout: 30_000 },
  );
  if (!claimed) return { item: null, noneLeft: true, fromAssigned: false };
  return { item: queueRowOut(claimed.row, me), noneLeft: false, fromAssigned: claimed.mine };
}

async function itemOfRun(db: Db, idOrShort: string, itemId: string) {
  const run = await resolveRun(db, idOrShort);
  const item = await db.evalRunItem.findFirst({ where: { id: itemId, runId: run.id }, select: { id: true } });
  if (!item) throw errors.notFound(`Item ${itemId} of run ${run.shortId}`);
  return run;
}

async function reservationAnswer(db: Db, itemId: string, me: string) {
  const row = await db.evalRunItem.findUniqueOrThrow({ where: { id: itemId }, select: { reservations: true } });
  const live = liveReservations(row.reservations, Date.now());
  const mine = live.find((r) => r.by === me);
  const others = live.filter((r) => r.by !== me);
  // who holds it, by name: the page names them before a verdict on it (a courtesy, not a lock)
  const labels = others.length
    ? await actorLabels(
        db,
        others.map((r) => r.by),
      )
    : new Map<string, string>();
  return {
    itemId,
    reserved: mine !== undefined,
    until: mine ? new Date(mine.until).toISOString() : null,
    reservedByOthers: others.length,
    heldBy: others.map((r) => ({ label: labels.get(r.by) ?? r.by, until: new Date(r.until).toISOString() })),
  };
}

/**
 * Reserves one item for `viewer` or renews their reservation (another RESERVATION_MS from now): the page calls it when
 * an item opens and while it stays open. One statement, like the claim; `reserved: false` when the item needs no
 * more reviewers (its places are reserved by others or reviewed, or it is decided or disputed).
 */
export async function reserveItem(db: Db, idOrShort: string, itemId: string, viewer: string | null) {
  const run = await itemOfRun(db, idOrShort, itemId);
  const me = who(viewer);
  const now = Date.now();
  await db.$executeRaw`
    UPDATE "EvalRunItem" AS i
    SET ${placeFor(me, now, now + RESERVATION_MS, run.reviewsPerItem)}
    WHERE i."id" = (
      SELECT c."id" FROM "EvalRunItem" c
      WHERE c."id" = ${itemId}::text AND NOT c."disputed"
        AND (c."verdict" IS NULL OR c."verdictSource" = 'adopted')
        AND NOT EXISTS (SELECT 1 FROM "EvalReview" r WHERE r."itemId" = c."id" AND r."reviewerId" = ${me}::text)
        AND (EXISTS (SELECT 1 FROM jsonb_array_elements(c."reservations") e
              WHERE e->>'by' = ${me}::text AND (e->>'until')::bigint > ${now}::bigint)
          OR (SELECT count(*) FROM jsonb_array_elements(c."reservations") e WHERE (e->>'until')::bigint > ${now}::bigint)
            + (SELECT count(*) FROM "EvalReview" r WHERE r."itemId" = c."id") < ${run.reviewsPerItem}::int)
      FOR UPDATE)`;
  return reservationAnswer(db, itemId, me);
}

/**
 * Drops `reviewer`'s reservation of an item (and any expired ones); nothing to drop is fine. One statement. The row
 * is no longer known full (`fullUntil`): the next claim looks at it again.
 */
export async function dropReservation(db: Db, itemId: string, reviewer: string) {
  const now = Date.now();
  await db.$executeRaw`
    UPDATE "EvalRunItem" AS i
    SET "reservations" = COALESCE(
        (SELECT jsonb_agg(e) FROM jsonb_array_elements(i."reservations") e
          WHERE (e->>'until')::bigint > ${now}::bigint AND e->>'by' <> ${reviewer}::text),
        '[]'::jsonb),
      "fullUntil" = NULL
    WHERE i."id" = ${itemId}::text AND EXISTS (SELECT 1 FROM jsonb_array_elements(i."reservations") e
      WHERE e->>'by' = ${reviewer}::text)`;
}

/** Releases `viewer`'s reservation of an item (leaving it); idempotent. */
export async function releaseItem(db: Db, idOrShort: string, itemId: string, viewer: string | null) {
  await itemOfRun(db, idOrShort, itemId);
  const me = who(viewer);
  await dropReservation(db, itemId, me);
  return reservationAnswer(db, itemId, me);
}

/**
 * Splits a run's items (all of them, in queue order) evenly and at random between people (`splitItems`, seeded; the
 * seed is stored in the run's `assignment`) and stores each item's person; an empty list removes the assignment.
 * Users must exist and be enabled (400 REQUEST_INVALID naming the others). Two statements in one batch.
 */
export async function assignItems(
  db: Db,
  idOrShort: string,
  input: z.input<typeof AssigneesInput>,
  byId: string | null,
) {
  const data = AssigneesInput.parse(input);
  const run = await resolveRun(db, idOrShort);
  const users = data.userIds.length
    ? await db.user.findMany({ where: { id: { in: data.userIds }, disabledAt: null }, select: { id: true } })
    : [];
  const known = new Set(users.map((u) => u.id));
  const unknown = data.userIds.filter((id) => !known.has(id));
  if (unknown.length)
    throw errors.badRequest(
      "REQUEST_INVALID",
      `Not an enabled user: ${unknown.join(", ")}`,
      unknown.map((id) => ({
        path: `/userIds/${data.userIds.indexOf(id)}`,
        message: "no enabled user has this id",
        code: "custom",
      })),
    );
  const seed = data.userIds.length ? (data.seed ?? randomInt(0, 2 ** 31 - 1)) : null;
  const items = await db.evalRunItem.findMany({ where: { runId: run.id }, orderBy: itemOrder, select: { id: true } });
  const split = splitItems(
    items.map((i) => i.id),
    data.userIds,
    seed ?? 0,
  );
  const ids = [...split.keys()];
  const owners = ids.map((id) => split.get(id)!);
  await db.$transaction([
    db.$executeRaw`UPDATE "EvalRunItem" SET "assigneeId" = NULL WHERE "runId" = ${run.id} AND "assigneeId" IS NOT NULL`,
    db.$executeRaw`
      UPDATE "EvalRunItem" AS i SET "assigneeId" = v.uid
      FROM unnest(${ids}::text[], ${owners}::text[]) AS v(id, uid)
      WHERE i."id" = v.id AND i."runId" = ${run.id}`,
    db.evalRun.update({
      where: { id: run.id },
      data: {
        assignment: data.userIds.length
          ? { userIds: data.userIds, seed, algorithm: SPLIT_ALGORITHM, byId, at: new Date().toISOString() }
          : { userIds: [], seed: null, algorithm: SPLIT_ALGORITHM, byId, at: new Date().toISOString() },
      },
    }),
  ]);
  return {
    runId: run.id,
    userIds: data.userIds,
    seed,
    algorithm: SPLIT_ALGORITHM,
    assigned: data.userIds.map((userId) => ({ userId, items: owners.filter((o) => o === userId).length })),
  };
}

type Count = { who: string; n: bigint | number };

/**
 * Each person's part in a run: reviews given (a person's verdicts; with several reviewers per item, their reviews),
 * live reservations, assigned items and those still to do for them, and their pace. Everyone who appears in any of
 * them; by name.
 */
export async function peopleProgress(db: Db, run: { id: string; reviewsPerItem: number }) {
  const now = Date.now();
  const reviewed =
    run.reviewsPerItem > 1
      ? db.$queryRaw<Array<Count & { first: Date; last: Date }>>`
        SELECT r."reviewerId" AS who, count(*) AS n, min(r."at") AS first, max(r."at") AS last
        FROM "EvalReview" r JOIN "EvalRunItem" i ON i."id" = r."itemId"
        WHERE i."runId" = ${run.id} AND r."reviewerId" <> ${ADOPTED_REVIEWER}
        GROUP BY r."reviewerId"`
      : db.$queryRaw<Array<Count & { first: Date; last: Date }>>`
        SELECT "verdictById" AS who, count(*) AS n, min("verdictAt") AS first, max("verdictAt") AS last
        FROM "EvalRunItem"
        WHERE "runId" = ${run.id} AND "verdict" IS NOT NULL AND "verdictSource" = 'human' AND "verdictById" IS NOT NULL
        GROUP BY "verdictById"`;
  const [reviews, reserved, assigned] = await Promise.all([
    reviewed,
    db.$queryRaw<Count[]>`
      SELECT e->>'by' AS who, count(*) AS n
      FROM "EvalRunItem" i, jsonb_array_elements(i."reservations") e
      WHERE i."runId" = ${run.id} AND jsonb_array_length(i."reservations") > 0
        AND (e->>'until')::bigint > ${now}::bigint
      GROUP BY e->>'by'`,
    db.$queryRaw<Array<Count & { left: bigint | number }>>`
      SELECT i."assigneeId" AS who, count(*) AS n,
        count(*) FILTER (WHERE i."verdict" IS NULL AND NOT i."disputed" AND NOT EXISTS (
          SELECT 1 FROM "EvalReview" r WHERE r."itemId" = i."id" AND r."reviewerId" = i."assigneeId")) AS left
      FROM "EvalRunItem" i
      WHERE i."runId" = ${run.id} AND i."assigneeId" IS NOT NULL
      GROUP BY i."assigneeId"`,
  ]);
  const ids = new Set([...reviews, ...reserved, ...assigned].map((r) => r.who));
  const labels = await actorLabels(db, ids);
  return [...ids]
    .map((userId) => {
      const r = reviews.find((x) => x.who === userId);
      const a = assigned.find((x) => x.who === userId);
      const n = Number(r?.n ?? 0);
      return {
        userId,
        name: labels.get(userId) ?? null,
        reviewed: n,
        reserved: Number(reserved.find((x) => x.who === userId)?.n ?? 0),
        assigned: Number(a?.n ?? 0),
        left: Number(a?.left ?? 0),
        itemsPerHour: itemsPerHour(n, r?.first ?? null, r?.last ?? null),
      };
    })
    .sort((x, y) => (x.name ?? x.userId).localeCompare(y.name ?? y.userId));
}

/** GET /runs/{id}/progress: the queue's counts (`reviewProgress`) and each person's part (`peopleProgress`). */
export async function progressWithPeople(db: Db, idOrShort: string) {
  const run = await resolveRun(db, idOrShort);
  const [counts, people] = await Promise.all([reviewProgress(db, run.id), peopleProgress(db, run)]);
  return { ...counts, people };
}
