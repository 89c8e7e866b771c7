import type { Db } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { env } from "../../core/env";
import { mergeTokens, tokensOf, type ModelTokens } from "../../core/prices";
import { getLlmProvider } from "../../runtime";
import { coverageJudge, llmJudge, type JudgeProvider, type JudgeResult } from "./judge";
import { computeFlags, type StepLike } from "./guardrails";
import { firstArray } from "./json-path";
import { evaluateAssertions } from "./rules";
import { combineSuggestion, type Suggestion } from "./suggest";
import type { Assertion } from "./schemas";
import type { Tier } from "../runs/schemas";

/**
 * Computing an item's machine suggestion: rules + judge + guardrails. The judge is the LLM judge when a provider
 * is configured (runtime getLlmProvider() is not offline) and EVAL_JUDGE is not `builtin`, otherwise the built-in
 * point-coverage judge. A failing LLM judge call falls back to the built-in judge (recorded as judgeError).
 */
export type SuggestInput = {
  question: string;
  expectedPoints: string[];
  sampleAssertions: Assertion[] | null;
  setAssertions: Assertion[] | null;
  tier: Tier;
  answer: string;
  /** all answers of a multi-turn script (the judge reads them together); default: the answer */
  judgeText?: string;
  payload: Record<string, unknown> | null;
  failed: boolean;
  error: string | null;
  steps: StepLike[] | null;
  hasHttpNodes: boolean;
};
/** judgeUsage: the judge's tokens by model (empty for the built-in judge), for the cost (server/core/prices.ts) */
export type SuggestOutput = {
  suggestion: Suggestion;
  judgeTokens: number;
  judgeCalls: number;
  judgeUsage: ModelTokens[];
};

/** The judge provider to use, or null for the built-in judge. */
export function judgeProvider(): JudgeProvider | null {
  const mode = env().EVAL_JUDGE;
  if (mode === "builtin") return null;
  const provider = getLlmProvider();
  return provider.offline ? null : provider;
}

export async function suggest(
  input: SuggestInput,
  opts: { provider?: JudgeProvider | null; signal?: AbortSignal; idempotencyScope?: string } = {},
): Promise<SuggestOutput> {
  const provider = opts.provider === undefined ? judgeProvider() : opts.provider;
  const text = input.judgeText ?? input.answer;
  const listItems = input.payload ? (firstArray(input.payload)?.items.length ?? 0) : 0;
  const rules = evaluateAssertions(input.setAssertions, input.sampleAssertions, {
    answer: input.answer,
    payload: input.payload,
  });
  const flags = computeFlags({
    tier: input.tier,
    answer: input.answer,
    payload: input.payload,
    failed: input.failed,
    error: input.error,
    steps: input.steps,
    hasHttpNodes: input.hasHttpNodes,
  });
  let judge: JudgeResult;
  if (provider && !input.failed && text.trim()) {
    try {
      judge = await llmJudge(provider, {
        question: input.question,
        points: input.expectedPoints,
        answer: text,
        signal: opts.signal,
        idempotencyScope: opts.idempotencyScope,
      });
    } catch (e) {
      judge = {
        ...coverageJudge(input.expectedPoints, text, listItems),
        error: `LLM judge failed, built-in judge used: ${(e as Error).message}`.slice(0, 300),
      };
    }
  } else judge = coverageJudge(input.expectedPoints, text, listItems);
  const suggestion = combineSuggestion(judge, rules, flags);
  return {
    suggestion,
    judgeTokens: (judge.usage?.promptTokens ?? 0) + (judge.usage?.completionTokens ?? 0),
    judgeCalls: judge.usage?.calls ?? 0,
    judgeUsage: judge.usage
      ? [
          {
            model: judge.usage.model ?? "unrecorded",
            promptTokens: judge.usage.promptTokens,
            completionTokens: judge.usage.completionTokens,
          },
        ]
      : [],
  };
}

/** What a suggestion is computed from besides the answer: the sample (as stored) and its run. */
export type SuggestSample = { question: string; expectedPoints: unknown; assertions: unknown };
export type SuggestRun = { tier: Tier; setAssertions: unknown };
export type SuggestAnswer = {
  answer: string | null;
  judgeText?: string;
  payload: unknown;
  failed: boolean;
  error: string | null;
  /** the execution's steps (in-platform runs); pasted or stored answers have none */
  steps?: StepLike[] | null;
  hasHttpNodes?: boolean;
};

/** The one place a suggestion's input is assembled, for answers written by the queue, pasted answers and re-judging. */
export function suggestInputFor(sample: SuggestSample, run: SuggestRun, a: SuggestAnswer): SuggestInput {
  return {
    question: sample.question,
    expectedPoints: (sample.expectedPoints as string[] | null) ?? [],
    sampleAssertions: (sample.assertions as Assertion[] | null) ?? null,
    setAssertions: (run.setAssertions as Assertion[] | null) ?? null,
    tier: run.tier,
    answer: a.answer ?? "",
    judgeText: a.judgeText,
    payload: (a.payload as Record<string, unknown> | null) ?? null,
    failed: a.failed,
    error: a.error,
    steps: a.steps ?? null,
    hasHttpNodes: a.hasHttpNodes ?? false,
  };
}

/** Recomputes and stores one item's suggestion from what is stored (pasted answers with the LLM judge, re-judging). */
export async function judgeStoredItem(
  db: Db,
  itemId: string,
  run: SuggestRun,
  provider: JudgeProvider | null | undefined,
) {
  const item = await db.evalRunItem.findUnique({
    where: { id: itemId },
    select: {
      id: true,
      status: true,
      answer: true,
      payload: true,
      error: true,
      turns: true,
      judgeUsage: true,
      sample: { select: { question: true, expectedPoints: true, assertions: true } },
    },
  });
  if (!item || (item.status !== "answered" && item.status !== "failed")) return;
  const turns = Array.isArray(item.turns) ? (item.turns as Array<{ answer?: unknown }>) : null;
  const judgeText = turns
    ? turns
        .map((t) => (typeof t.answer === "string" ? t.answer : ""))
        .filter(Boolean)
        .join("\n")
    : undefined;
  const out = await suggest(
    suggestInputFor(item.sample, run, {
      answer: item.answer,
      judgeText,
      payload: item.payload,
      failed: item.status === "failed",
      error: item.error,
    }),
    { provider },
  );
  await db.evalRunItem.update({
    where: { id: itemId },
    data: {
      suggestion: out.suggestion as unknown as Prisma.InputJsonValue,
      suggestedAt: new Date(),
      judgeTokens: { increment: out.judgeTokens },
      judgeCalls: { increment: out.judgeCalls },
      judgeUsage: mergeTokens(tokensOf(item.judgeUsage), out.judgeUsage) as unknown as Prisma.InputJsonValue,
    },
  });
}
