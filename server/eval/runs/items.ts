import type { z } from "zod";
import type { Db } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { errors } from "../../core/errors";
import { actorLabels } from "../../auth/service";
import { ListItemsQuery, QueueFilterQuery } from "./schemas";
import {
  classificationWhere,
  itemOut,
  itemSelect,
  queueRowOut,
  queueSelect,
  sourceWhere,
  spotCheckWhere,
  suggestionWhere,
} from "./item-rows";
import { progressOf, resolveRun, runOut } from "./run-rows";
import { costOf, tokensOf } from "../../core/prices";
import { modelPrices } from "./prices";
import type { OtherAnswerOut } from "./schemas";

type OtherAnswer = z.infer<typeof OtherAnswerOut>;

// ---------------------------------------------------------------- items

/** The item filters of listItems and listQueue (one place). */
export function itemsWhere(runId: string, q: z.output<typeof QueueFilterQuery>): Prisma.EvalRunItemWhereInput {
  const and: Prisma.EvalRunItemWhereInput[] = [{ runId }];
  // `disputed` is shown as the item's status (its reviewers disagree); the answering states are the others
  if (q.status) and.push(q.status === "disputed" ? { disputed: true } : { status: q.status, disputed: false });
  if (q.verdict) and.push(q.verdict === "none" ? { verdict: null } : { verdict: q.verdict });
  if (q.suggestion) and.push(suggestionWhere(q.suggestion));
  if (q.spotCheck) and.push(spotCheckWhere());
  if (q.classification !== undefined) and.push(classificationWhere(q.classification));
  if (q.source) and.push(sourceWhere(q.source));
  if (q.q)
    and.push({
      sample: {
        OR: [{ question: { contains: q.q, mode: "insensitive" } }, { key: { contains: q.q, mode: "insensitive" } }],
      },
    });
  return { AND: and };
}

export const itemOrder = [{ position: "asc" }, { id: "asc" }] satisfies Prisma.EvalRunItemOrderByWithRelationInput[];

/**
 * The reads below show items as one person may see them (`viewer`: a reviewer id, `reviewerOf(principal)`): on a run
 * with several reviewers per item, the others' reviews stay hidden until the viewer has given theirs (blind review,
 * `runs/reviews.ts`).
 */
export async function listItems(
  db: Db,
  idOrShort: string,
  query: z.input<typeof ListItemsQuery>,
  viewer: string | null = null,
) {
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
    items: page.map((i) => itemOut(i, viewer)),
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
      // a disputed item waits for an adjudicator, not for a spot-check: the gate counts it there too (gate.ts)
      where: {
        AND: [{ runId, disputed: false }, spotCheckWhere(), { OR: [{ verdict: null }, { verdictSource: "adopted" }] }],
      },
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
export async function listQueue(
  db: Db,
  idOrShort: string,
  query: z.input<typeof ListItemsQuery>,
  viewer: string | null = null,
) {
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
    items: page.map((i) => queueRowOut(i, viewer)),
    nextCursor: rows.length > q.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/**
 * Items still to do in a queue: without a verdict; under the spot-check filter also the adopted ones, since a
 * spot-check item is left until a person has typed its verdict (`spotCheckLeft` in suggest.ts, the same rule as the
 * progress's `spotCheckLeft` count and the gate's spot-checks).
 */
export function openWhere(
  q: { spotCheck?: boolean; source?: "human" | "adopted" },
  viewer: string | null,
): Prisma.EvalRunItemWhereInput {
  // the adopted verdicts still to review (source=adopted) are left until a person types theirs, like spot-checks
  const open: Prisma.EvalRunItemWhereInput =
    q.spotCheck || q.source === "adopted"
      ? { OR: [{ verdict: null }, { verdictSource: "adopted" }] }
      : { verdict: null };
  // several reviewers per item: not disputed (an adjudicator's) and not yet reviewed by the viewer
  return { AND: [open, { disputed: false }, ...(viewer ? [{ reviews: { none: { reviewerId: viewer } } }] : [])] };
}

/** How many matching items on each side of an item `queueNeighbours` returns. */
export const NEIGHBOUR_WINDOW = 20;

/**
 * Where one item sits in the queue under the filters, in queue order (the position of its sample, then id), whether it matches
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
  viewer: string | null = null,
) {
  const q = QueueFilterQuery.parse(query);
  const run = await resolveRun(db, idOrShort);
  const item = await db.evalRunItem.findFirst({
    where: { id: itemId, runId: run.id },
    select: { id: true, position: true },
  });
  if (!item) throw errors.notFound(`Item ${itemId} of run ${run.shortId}`);
  const where = itemsWhere(run.id, q);
  const p = item.position;
  const beforeIt: Prisma.EvalRunItemWhereInput = {
    OR: [{ position: { lt: p } }, { position: p, id: { lt: item.id } }],
  };
  const afterIt: Prisma.EvalRunItemWhereInput = {
    OR: [{ position: { gt: p } }, { position: p, id: { gt: item.id } }],
  };
  const backwards = [{ position: "desc" }, { id: "desc" }] satisfies Prisma.EvalRunItemOrderByWithRelationInput[];
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
      where: { AND: [where, afterIt, openWhere(q, viewer)] },
      orderBy: itemOrder,
      select: queueSelect,
    }),
  ]);
  const nextOpen =
    openAfter ??
    (await db.evalRunItem.findFirst({
      where: { AND: [where, beforeIt, openWhere(q, viewer)] },
      orderBy: itemOrder,
      select: queueSelect,
    }));
  return {
    itemId: item.id,
    position: matches ? ahead + 1 : null,
    matching,
    firstPosition: ahead - before.length + 1,
    before: before.reverse().map((i) => queueRowOut(i, viewer)),
    after: after.map((i) => queueRowOut(i, viewer)),
    nextOpen: nextOpen ? queueRowOut(nextOpen, viewer) : null,
  };
}

export async function getItem(db: Db, idOrShort: string, itemId: string, viewer: string | null = null) {
  const run = await resolveRun(db, idOrShort);
  const row = await db.evalRunItem.findFirst({
    where: { id: itemId, runId: run.id },
    select: {
      ...itemSelect,
      answerUsage: true,
      judgeUsage: true,
      repeatAnswers: true,
      verdictChanges: { orderBy: { version: "asc" } },
    },
  });
  if (!row) throw errors.notFound(`Item ${itemId} of run ${run.shortId}`);
  const { verdictChanges, answerUsage, judgeUsage, repeatAnswers, ...item } = row;
  const { prices } = await modelPrices(db);
  // items stored before tokens were kept by model: their tokens count under `unrecorded` (server/eval/reports/cost.ts)
  const answering =
    answerUsage === null && item.promptTokens + item.completionTokens > 0
      ? [{ model: "unrecorded", promptTokens: item.promptTokens, completionTokens: item.completionTokens }]
      : tokensOf(answerUsage);
  const judging =
    judgeUsage === null && item.judgeTokens > 0
      ? [{ model: "unrecorded", promptTokens: item.judgeTokens, completionTokens: 0 }]
      : tokensOf(judgeUsage);
  const out = itemOut(item, viewer);
  // blind review: while the others' reviews are hidden from the viewer, so are their changes in the history
  const blind = out.reviews !== null && out.reviews.others === null;
  const changes = blind ? verdictChanges.filter((c) => viewer !== null && c.byId === viewer) : verdictChanges;
  const labels = await actorLabels(db, [
    item.verdictById,
    item.adjudicatedById,
    ...item.reviews.map((r) => r.reviewerId),
    ...changes.map((c) => c.byId),
  ]);
  const label = <T extends { reviewerId: string }>(r: T) => ({ ...r, byLabel: labels.get(r.reviewerId) ?? null });
  return {
    ...out,
    cost: costOf({ answering, judging }, prices),
    // written only by answer-item.ts (repeatAnswerOf): the item detail's OtherAnswerOut
    otherAnswers: (Array.isArray(repeatAnswers) ? repeatAnswers : []) as unknown as OtherAnswer[],
    verdict: out.verdict ? { ...out.verdict, byLabel: labels.get(out.verdict.byId ?? "") ?? null } : null,
    reviews: out.reviews && {
      ...out.reviews,
      mine: out.reviews.mine && label(out.reviews.mine),
      others: out.reviews.others && out.reviews.others.map(label),
      adjudication: out.reviews.adjudication && {
        ...out.reviews.adjudication,
        byLabel: labels.get(out.reviews.adjudication.byId ?? "") ?? null,
      },
    },
    history: changes.map((c) => ({
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
