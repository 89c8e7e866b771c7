import { env } from "../core/env";
import { getLlmProvider } from "../runtime";
import { coverageJudge, llmJudge, type JudgeProvider, type JudgeResult } from "./judge";
import { computeFlags, type StepLike } from "./guardrails";
import { firstArray } from "./json-path";
import { evaluateAssertions } from "./rules";
import { combineSuggestion, type Suggestion } from "./suggest";
import type { Assertion, Tier } from "./schemas";

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
export type SuggestOutput = { suggestion: Suggestion; judgeTokens: number; judgeCalls: number };

/** The judge provider to use, or null for the built-in judge. */
export function judgeProvider(): JudgeProvider | null {
  const mode = env().EVAL_JUDGE;
  if (mode === "builtin") return null;
  const provider = getLlmProvider();
  return provider.offline ? null : provider;
}

export async function suggest(input: SuggestInput, opts: { provider?: JudgeProvider | null; signal?: AbortSignal } = {}): Promise<SuggestOutput> {
  const provider = opts.provider === undefined ? judgeProvider() : opts.provider;
  const text = input.judgeText ?? input.answer;
  const listItems = input.payload ? (firstArray(input.payload)?.items.length ?? 0) : 0;
  const rules = evaluateAssertions(input.setAssertions, input.sampleAssertions, { answer: input.answer, payload: input.payload });
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
      judge = await llmJudge(provider, { question: input.question, points: input.expectedPoints, answer: text, signal: opts.signal });
    } catch (e) {
      judge = { ...coverageJudge(input.expectedPoints, text, listItems), error: `LLM judge failed, built-in judge used: ${(e as Error).message}`.slice(0, 300) };
    }
  } else judge = coverageJudge(input.expectedPoints, text, listItems);
  const suggestion = combineSuggestion(judge, rules, flags);
  return { suggestion, judgeTokens: (judge.usage?.promptTokens ?? 0) + (judge.usage?.completionTokens ?? 0), judgeCalls: judge.usage?.calls ?? 0 };
}
