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

export function itemOut(i: ItemRow) {
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
    status: i.status,
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
    badCase: i.badCase,
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
  sample: { select: { key: true, position: true, question: true, classification: true } },
  badCase: { select: { id: true, status: true } },
} as const;
type QueueRow = Prisma.EvalRunItemGetPayload<{ select: typeof queueSelect }>;

export function queueRowOut(i: QueueRow) {
  const s = i.suggestion as Suggestion | null;
  return {
    id: i.id,
    key: i.sample.key,
    position: i.sample.position,
    question: i.sample.question.length > 240 ? `${i.sample.question.slice(0, 239)}…` : i.sample.question,
    classification: i.classification || i.sample.classification,
    status: i.status,
    suggestion: s ? { verdict: s.verdict, flags: s.flags.map((f) => f.flag) } : null,
    verdict: i.verdict ? { verdict: i.verdict, source: (i.verdictSource ?? "human") as "human" | "adopted" } : null,
    spotCheck: needsSpotCheck(s),
    spotCheckLeft: spotCheckLeft(s, i.verdict ? { source: (i.verdictSource ?? "human") as "human" | "adopted" } : null),
    badCase: i.badCase,
  };
}

// ---------------------------------------------------------------- filters on the stored suggestion (names from suggest.ts)

/** Items whose suggestion has this verdict, or no suggestion at all ("none"). */
export function suggestionWhere(verdict: SuggestionVerdict | "none"): Prisma.EvalRunItemWhereInput {
  if (verdict === "none") return { suggestion: { equals: Prisma.DbNull } };
  return { suggestion: { path: [SUGGESTION_JSON.verdict], equals: verdict } };
}

/** The spot-check rule (SPOT_CHECK, the same as needsSpotCheck) as a database filter. */
export function spotCheckWhere(): Prisma.EvalRunItemWhereInput {
  const flagged: Prisma.EvalRunItemWhereInput = {
    AND: [
      { NOT: { suggestion: { equals: Prisma.DbNull } } },
      { NOT: { suggestion: { path: [SUGGESTION_JSON.flags], equals: [] } } },
    ],
  };
  return { OR: [...SPOT_CHECK.verdicts.map((v) => suggestionWhere(v)), ...(SPOT_CHECK.anyFlag ? [flagged] : [])] };
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
