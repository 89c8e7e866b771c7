/**
 * Reserved and assigned queues (issue 23), the pure rules: what an item's stored reservations mean now, how a
 * queue row or an item is marked for one person, the seeded even split of a run's items between people, and a
 * person's items per hour. No I/O: `reservations.ts` claims, renews, releases and assigns with them, `item-rows.ts`
 * marks rows with them.
 *
 * - A reservation is `{ by, until }` (a reviewer id as `actorRef` gives it, epoch ms) in the item's `reservations`;
 *   it counts while `until` is in the future (RESERVATION_MS after the claim or the last renewal).
 * - An item may be reserved by at most `reviewsPerItem` minus its reviews people at once, never twice by one
 *   person, never by someone who has reviewed it.
 * - Reservation is a courtesy, not a lock: a verdict on an item reserved by someone else is accepted.
 */

/** How long a reservation lasts after the claim or the last renewal. */
export const RESERVATION_MS = 10 * 60 * 1000;

export type Reservation = { by: string; until: number };

/** The stored reservations still counting at `now` (anything else in the column is ignored). */
export function liveReservations(stored: unknown, now: number): Reservation[] {
  if (!Array.isArray(stored)) return [];
  return stored.filter(
    (r): r is Reservation =>
      typeof r === "object" &&
      r !== null &&
      typeof (r as Reservation).by === "string" &&
      typeof (r as Reservation).until === "number" &&
      (r as Reservation).until > now,
  );
}

export type QueueMarks = {
  assignee: string | null;
  assignedToOther: boolean;
  reservedUntil: string | null;
  reservedByOthers: number;
};

/** How an item is marked for `viewer`: whose it is, whether `viewer` holds it and until when, how many others do. */
export function queueMarksOf(
  item: { assigneeId: string | null; reservations: unknown },
  viewer: string | null,
  now = Date.now(),
): QueueMarks {
  const live = liveReservations(item.reservations, now);
  const mine = viewer === null ? undefined : live.find((r) => r.by === viewer);
  return {
    assignee: item.assigneeId,
    assignedToOther: item.assigneeId !== null && item.assigneeId !== viewer,
    reservedUntil: mine ? new Date(mine.until).toISOString() : null,
    reservedByOthers: live.filter((r) => r.by !== viewer).length,
  };
}

/** A small seeded generator (mulberry32): the same seed gives the same split on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Splits `itemIds` (in queue order) evenly and at random between `userIds`: a seeded shuffle, then dealt in turn,
 * so every person gets floor(n/k) or ceil(n/k) items and the same seed reproduces the same split. Returns item id ->
 * user id.
 */
export function splitItems(itemIds: string[], userIds: string[], seed: number): Map<string, string> {
  const out = new Map<string, string>();
  if (userIds.length === 0) return out;
  const order = [...itemIds];
  const random = seededRandom(seed);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  order.forEach((id, i) => out.set(id, userIds[i % userIds.length]!));
  return out;
}

/**
 * A person's pace: reviews per hour between their first and their last review in the run (at least one minute),
 * rounded to one decimal; null before their second review (one review has no pace).
 */
export function itemsPerHour(reviewed: number, first: Date | null, last: Date | null): number | null {
  if (reviewed < 2 || !first || !last) return null;
  const hours = Math.max(last.getTime() - first.getTime(), 60_000) / 3_600_000;
  return Math.round((reviewed / hours) * 10) / 10;
}
