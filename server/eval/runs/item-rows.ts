import { Prisma } from "../../db/generated/client";
import {
  SPOT_CHECK,
  SUGGESTION_JSON,
  needsSpotCheck,
  spotCheckLeft,
  type Suggestion,
  type SuggestionVerdict,
} from "../suggestions/suggest";
import type { Assertion } from "../suggestions/schemas";
import type { Turn } from "../sets/schemas";
import type { Attribution } from "../verdicts/schemas";
import { othersVisible, reviewStateOf, type Review } from "./reviews";
import { queueMarksOf } from "./reservation-rules";

/** The review rows every item shape reads (runs with several reviewers per item; none otherwise). */
const reviewSelect = {
  reviewerId: true,
  verdict: true,
  source: true,
  basis: true,
  attribution: true,
  classification: true,
  at: true,
} as const;

/** The item shape every face returns. */
export const itemSelect = {
  id: true,
  runId: true,
  sampleId: true,
  status: true,
  attempts: true,
  answer: true,
  payload: true,
  turns: true,
  traceId: true,
  latencyMs: true,
  promptTokens: true,
  completionTokens: true,
  llmCalls: true,
  error: true,
  answeredAt: true,
  suggestion: true,
  suggestedAt: true,
  otherSuggestions: true,
  judgeTokens: true,
  judgeCalls: true,
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
  auditId: true,
  reviews: { select: reviewSelect, orderBy: { at: "asc" } },
  run: { select: { reviewsPerItem: true } },
  sample: {
    select: {
      key: true,
      position: true,
      question: true,
      expectedPoints: true,
      classification: true,
      script: true,
      assertions: true,
      sourceTraceId: true,
    },
  },
  badCase: { select: { id: true, status: true } },
  assigneeId: true,
  reservations: true,
} as const;
export type ItemRow = Prisma.EvalRunItemGetPayload<{ select: typeof itemSelect }>;

export function verdictOf(
  i: Pick<
    ItemRow,
    "verdict" | "verdictSource" | "verdictBasis" | "attribution" | "classification" | "verdictById" | "verdictAt"
  >,
) {
  if (!i.verdict) return null;
  return {
    verdict: i.verdict,
    source: (i.verdictSource ?? "human") as "human" | "adopted",
    basis: i.verdictBasis,
    // written only through VerdictInput or inferAttribution: one of the vocabulary's attributions
    attribution: i.attribution as Attribution | null,
    classification: i.classification,
    byId: i.verdictById,
    at: i.verdictAt,
  };
}

/** A stored review as the faces show it. */
export function reviewOut(r: Omit<Review, "source"> & { source: string }) {
  return {
    reviewerId: r.reviewerId,
    verdict: r.verdict,
    source: (r.source === "adopted" ? "adopted" : "human") as "human" | "adopted",
    basis: r.basis,
    attribution: r.attribution as Attribution | null,
    classification: r.classification,
    at: r.at,
    /** who, for people: filled in by the single-item read (getItem) */
    byLabel: null as string | null,
  };
}

/**
 * The reviews of an item as `viewer` (a reviewer id: the person, or null) may see them: null on a run with one
 * reviewer per item; otherwise how many it needs and has, its state, the viewer's own review, and the others'
 * reviews only when the viewer may see them (blind review: `othersVisible`).
 */
export function reviewsOut(
  i: Pick<ItemRow, "reviews" | "run" | "disputed" | "adjudicatedAt" | "adjudicatedById">,
  viewer: string | null,
) {
  const needed = i.run.reviewsPerItem;
  if (needed <= 1) return null;
  const visible = othersVisible(i.reviews, needed, viewer);
  const mine = i.reviews.find((r) => r.reviewerId === viewer) ?? null;
  return {
    needed,
    given: i.reviews.length,
    state: reviewStateOf(i, i.reviews, needed),
    mine: mine ? reviewOut(mine) : null,
    others: visible ? i.reviews.filter((r) => r.reviewerId !== viewer).map(reviewOut) : null,
    adjudication: i.adjudicatedAt
      ? { byId: i.adjudicatedById, at: i.adjudicatedAt, byLabel: null as string | null }
      : null,
  };
}

/** The item's status as the faces show it: `disputed` while its reviewers disagree, else its answering state. */
export const shownStatus = (i: { status: ItemRow["status"]; disputed: boolean }) =>
  i.disputed ? ("disputed" as const) : i.status;

/** An item as `viewer` (a reviewer id, or null) may see it: see reviewsOut for blind review. */
export function itemOut(i: ItemRow, viewer: string | null = null) {
  return {
    id: i.id,
    runId: i.runId,
    sampleId: i.sampleId,
    key: i.sample.key,
    position: i.sample.position,
    question: i.sample.question,
    expectedPoints: (i.sample.expectedPoints as string[]) ?? [],
    sampleClassification: i.sample.classification,
    script: (i.sample.script as Turn[] | null) ?? null,
    assertions: (i.sample.assertions as Assertion[] | null) ?? null,
    sourceTraceId: i.sample.sourceTraceId,
    status: shownStatus(i),
    attempts: i.attempts,
    answer: i.answer,
    payload: (i.payload as Record<string, unknown> | null) ?? null,
    turns: (i.turns as unknown[] | null) ?? null,
    traceId: i.traceId,
    latencyMs: i.latencyMs,
    promptTokens: i.promptTokens,
    completionTokens: i.completionTokens,
    llmCalls: i.llmCalls,
    error: i.error,
    answeredAt: i.answeredAt,
    suggestion: (i.suggestion as Suggestion | null) ?? null,
    suggestedAt: i.suggestedAt,
    otherSuggestions: (i.otherSuggestions as Record<string, Suggestion> | null) ?? {},
    judgeTokens: i.judgeTokens,
    judgeCalls: i.judgeCalls,
    verdict: verdictOf(i),
    verdictVersion: i.verdictVersion,
    reviews: reviewsOut(i, viewer),
    audit: i.auditId !== null,
    badCase: i.badCase,
    queue: queueMarksOf(i, viewer),
  };
}
export type ItemOutT = ReturnType<typeof itemOut>;

/** A compact item for the annotation queue: no answer, payload or turns. */
export const queueSelect = {
  id: true,
  status: true,
  suggestion: true,
  verdict: true,
  verdictSource: true,
  classification: true,
  disputed: true,
  auditId: true,
  reviews: { select: { reviewerId: true, verdict: true } },
  run: { select: { reviewsPerItem: true } },
  sample: { select: { key: true, position: true, question: true, classification: true } },
  badCase: { select: { id: true, status: true } },
  assigneeId: true,
  reservations: true,
} as const;
export type QueueRow = Prisma.EvalRunItemGetPayload<{ select: typeof queueSelect }>;

/** A queue row as `viewer` (a reviewer id, or null) may see it: the reviews as counts and the viewer's own verdict only. */
export function queueRowOut(i: QueueRow, viewer: string | null = null) {
  const s = i.suggestion as Suggestion | null;
  const audit = i.auditId !== null;
  return {
    id: i.id,
    key: i.sample.key,
    position: i.sample.position,
    question: i.sample.question.length > 240 ? `${i.sample.question.slice(0, 239)}…` : i.sample.question,
    classification: i.classification || i.sample.classification,
    status: shownStatus(i),
    suggestion: s ? { verdict: s.verdict, flags: s.flags.map((f) => f.flag) } : null,
    verdict: i.verdict ? { verdict: i.verdict, source: (i.verdictSource ?? "human") as "human" | "adopted" } : null,
    spotCheck: needsSpotCheck(s) || audit,
    spotCheckLeft: spotCheckLeft(
      s,
      i.verdict ? { source: (i.verdictSource ?? "human") as "human" | "adopted" } : null,
      audit,
    ),
    audit,
    reviews:
      i.run.reviewsPerItem > 1
        ? {
            needed: i.run.reviewsPerItem,
            given: i.reviews.length,
            mine: i.reviews.find((r) => r.reviewerId === viewer)?.verdict ?? null,
          }
        : null,
    badCase: i.badCase,
    queue: queueMarksOf(i, viewer),
  };
}

// ---------------------------------------------------------------- filters on the stored suggestion (names from suggest.ts)

/** Items whose suggestion has this verdict, or no suggestion at all ("none"). */
export function suggestionWhere(verdict: SuggestionVerdict | "none"): Prisma.EvalRunItemWhereInput {
  if (verdict === "none") return { suggestion: { equals: Prisma.DbNull } };
  return { suggestion: { path: [SUGGESTION_JSON.verdict], equals: verdict } };
}

/** Items whose verdict is typed by a person (human) or adopted and not yet typed by a person (adopted). */
export function sourceWhere(source: "human" | "adopted"): Prisma.EvalRunItemWhereInput {
  if (source === "adopted") return { verdict: { not: null }, verdictSource: "adopted" };
  return { verdict: { not: null }, OR: [{ verdictSource: "human" }, { verdictSource: null }] };
}

/**
 * The spot-check list as a database filter: the spot-check rule (SPOT_CHECK, the same as needsSpotCheck) or drawn by
 * an adoption's audit of its passes (`auditId`; verdicts/audit.ts).
 */
export function spotCheckWhere(): Prisma.EvalRunItemWhereInput {
  const flagged: Prisma.EvalRunItemWhereInput = {
    AND: [
      { NOT: { suggestion: { equals: Prisma.DbNull } } },
      { NOT: { suggestion: { path: [SUGGESTION_JSON.flags], equals: [] } } },
    ],
  };
  return {
    OR: [
      ...SPOT_CHECK.verdicts.map((v) => suggestionWhere(v)),
      ...(SPOT_CHECK.anyFlag ? [flagged] : []),
      { auditId: { not: null } },
    ],
  };
}

/** Items of a business scenario: the verdict's classification, else the sample's ("" = none). */
export function classificationWhere(classification: string): Prisma.EvalRunItemWhereInput {
  return {
    OR: [
      { classification },
      { AND: [{ OR: [{ classification: null }, { classification: "" }] }, { sample: { classification } }] },
    ],
  };
}
