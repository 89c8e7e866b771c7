import type { Db } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { env } from "../../core/env";
import { mergeTokens, tokensOf, type ModelTokens } from "../../core/prices";
import { getLlmProvider } from "../../runtime";
import { coverageJudge, llmJudge, type JudgeProvider, type JudgeResult } from "./judge";
import { runJudgeAgent, type ResolvedJudge } from "./judge-agent";
import { computeFlags, type StepLike } from "./guardrails";
import { firstArray } from "./json-path";
import { evaluateAssertions } from "./rules";
import { combineSuggestion, type Suggestion } from "./suggest";
import type { Assertion } from "./schemas";
import type { Tier } from "../runs/schemas";

/**
 * Computing an item's machine suggestion: rules + judge + guardrails. The judge is the run's (`opts.judge`, resolved
 * by judge-agent.ts): built-in, LLM or a judge agent. Without one (callers that judge with the built-in judge on
 * purpose, and runs created before judges could be chosen) it is the LLM judge when a provider is configured (runtime
 * getLlmProvider() is not offline) and EVAL_JUDGE is not `builtin`, otherwise the built-in point-coverage judge. A
 * failing LLM judge call falls back to the built-in judge (recorded as judgeError); the LLM judge with no provider
 * configured is the built-in judge with that reason. A judge agent is not called for a failed execution or an empty
 * answer (the guardrails already make the suggestion fail); its failures are `unknown` with the reason.
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
  /** the sample's scenario (classification) and the played turns, for judge agents (their inputs scenario, script) */
  scenario?: string;
  script?: unknown[] | null;
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

export type SuggestOptions = {
  /** the run's judge; see the module comment for what is used without one */
  judge?: ResolvedJudge;
  /** the database a judge agent runs on (required with an agent judge) */
  db?: Db;
  provider?: JudgeProvider | null;
  signal?: AbortSignal;
  idempotencyScope?: string;
};

export async function suggest(input: SuggestInput, opts: SuggestOptions = {}): Promise<SuggestOutput> {
  const chosen = opts.judge;
  let provider: JudgeProvider | null;
  let noProvider = false;
  if (chosen?.type === "builtin" || chosen?.type === "agent") provider = null;
  else if (chosen?.type === "llm") {
    const configured = opts.provider === undefined ? getLlmProvider() : opts.provider;
    provider = configured && !configured.offline ? configured : null;
    noProvider = !provider;
  } else provider = opts.provider === undefined ? judgeProvider() : opts.provider;
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
  if (chosen?.type === "agent") {
    if (input.failed || !text.trim())
      judge = {
        judge: chosen.ref.key,
        verdict: "unknown",
        coverage: [],
        rationale: "not judged: the execution failed or the answer is empty",
        judgedBy: chosen.ref,
      };
    else {
      if (!opts.db) throw new Error("suggest: a judge agent needs the database (opts.db)");
      judge = await runJudgeAgent(
        opts.db,
        chosen,
        {
          question: input.question,
          points: input.expectedPoints,
          answer: text,
          payload: input.payload,
          script: input.script ?? null,
          scenario: input.scenario ?? "",
        },
        { signal: opts.signal, idempotencyScope: opts.idempotencyScope },
      );
    }
  } else if (provider && !input.failed && text.trim()) {
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
  } else {
    judge = coverageJudge(input.expectedPoints, text, listItems);
    if (noProvider && !input.failed && text.trim())
      judge.error = "the LLM judge needs a model provider and none is configured: the built-in judge was used";
  }
  const suggestion = combineSuggestion(judge, rules, flags);
  return {
    suggestion,
    judgeTokens: (judge.usage?.promptTokens ?? 0) + (judge.usage?.completionTokens ?? 0),
    judgeCalls: judge.usage?.calls ?? 0,
    judgeUsage: judge.tokens
      ? judge.tokens
      : judge.usage
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
export type SuggestSample = { question: string; expectedPoints: unknown; assertions: unknown; classification?: string };
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
  /** a multi-turn script's played turns with their answers */
  turns?: unknown;
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
    scenario: sample.classification ?? "",
    script: Array.isArray(a.turns) ? (a.turns as unknown[]) : null,
  };
}

/**
 * Recomputes and stores one item's suggestion from what is stored (pasted answers with the LLM judge or a judge agent,
 * re-judging). With `as: "other"` the suggestion is another judge's than the run's: kept in otherSuggestions under
 * its judge's key, beside the run's own (which stays what the queue and adoption use).
 */
export async function judgeStoredItem(
  db: Db,
  itemId: string,
  run: SuggestRun,
  provider: JudgeProvider | null | undefined,
  opts: { judge?: ResolvedJudge; as?: "own" | "other"; signal?: AbortSignal } = {},
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
      sample: { select: { question: true, expectedPoints: true, assertions: true, classification: true } },
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
      turns: item.turns,
    }),
    { provider, judge: opts.judge, db, signal: opts.signal },
  );
  const usage = {
    judgeTokens: { increment: out.judgeTokens },
    judgeCalls: { increment: out.judgeCalls },
    judgeUsage: mergeTokens(tokensOf(item.judgeUsage), out.judgeUsage) as unknown as Prisma.InputJsonValue,
  };
  if (opts.as === "other" && opts.judge) {
    // one statement: two judges' suggestions stored at once never overwrite each other's key, and the suggestion and
    // the judging tokens it cost appear together (a reader between two statements saw the suggestion without its
    // tokens: judges.test.ts on PostgreSQL, stop 36)
    await db.$executeRaw`
      UPDATE "EvalRunItem" SET
        "otherSuggestions" = COALESCE("otherSuggestions", '{}'::jsonb) || jsonb_build_object(${opts.judge.ref.key}::text, ${JSON.stringify(out.suggestion)}::jsonb),
        "judgeTokens" = "judgeTokens" + ${out.judgeTokens}::int,
        "judgeCalls" = "judgeCalls" + ${out.judgeCalls}::int,
        "judgeUsage" = ${JSON.stringify(usage.judgeUsage)}::jsonb
      WHERE "id" = ${itemId}`;
    return;
  }
  await db.evalRunItem.update({
    where: { id: itemId },
    data: { suggestion: out.suggestion as unknown as Prisma.InputJsonValue, suggestedAt: new Date(), ...usage },
  });
}
