import type { ModelTokens } from "../../core/prices";
import type { JudgeRef } from "./schemas";
import { contentTokens, indexAnswer, tokenCredit } from "./text";

/**
 * Judges (machine suggestions only, never counted by a gate). Pure except `llmJudge`, which calls the provider
 * it is given.
 *
 * Built-in point-coverage judge: each expected point is tokenised (see text.ts); every content token earns
 * credit 1 when the answer has it (same word/stem, same Han substring, or the same bilingual concept such as
 * price = 价格 = "$5"), 0.5 for a partial Han match, 0 otherwise; generic item nouns ("菜品", "dishes") count
 * when the answer enumerates items. A point's score is the mean credit (weight 0.5 for generic nouns):
 * covered >= 0.75, partial >= 0.4, missing below. Verdict: every point covered -> pass; any point missing ->
 * fail; otherwise (some partial) -> unknown. No expected points -> unknown. The judge is lexical: it does
 * not understand negation or paraphrase beyond the concept table, which is why it only suggests.
 */
export type PointStatus = "covered" | "partial" | "missing" | "unclear";
export type PointCoverage = {
  point: string;
  status: PointStatus;
  score: number;
  matched: string[];
  missing: string[];
  evidence?: string;
};
export type JudgeVerdict = "pass" | "fail" | "unknown";
export type JudgeResult = {
  judge: string;
  verdict: JudgeVerdict;
  coverage: PointCoverage[];
  rationale: string;
  /** model: as the provider answered it (the key of the model price table) */
  usage?: { promptTokens: number; completionTokens: number; calls: number; model?: string };
  /** the judge's tokens by model, when it used several (a judge agent); else `usage` says it */
  tokens?: ModelTokens[];
  /** the judge that made it (recorded with the suggestion) */
  judgedBy?: JudgeRef;
  error?: string;
};

export const BUILTIN_JUDGE: JudgeRef = { type: "builtin", key: "builtin", label: "built-in point coverage" };
export const llmJudgeRef = (model?: string): JudgeRef => ({
  type: "llm",
  key: "llm",
  ...(model ? { model } : {}),
  label: model ? `LLM judge (${model})` : "LLM judge",
});

export const COVERED_AT = 0.75;
export const PARTIAL_AT = 0.4;

export function judgePoint(point: string, answerIndex: ReturnType<typeof indexAnswer>): PointCoverage {
  const tokens = contentTokens(point);
  if (tokens.length === 0) {
    // a point made only of stop words: fall back to a plain substring test
    const hit = answerIndex.compact.includes(point.normalize("NFKC").toLocaleLowerCase().replace(/\s+/g, ""));
    return { point, status: hit ? "covered" : "unclear", score: hit ? 1 : 0, matched: [], missing: [] };
  }
  let got = 0;
  let total = 0;
  const matched: string[] = [];
  const missing: string[] = [];
  for (const t of tokens) {
    const w = t.generic ? 0.5 : 1;
    const c = tokenCredit(t, answerIndex);
    total += w;
    got += w * c;
    (c > 0 ? matched : missing).push(t.text);
  }
  const score = Math.round((got / total) * 1000) / 1000;
  const status: PointStatus = score >= COVERED_AT ? "covered" : score >= PARTIAL_AT ? "partial" : "missing";
  return { point, status, score, matched, missing };
}

export function verdictFromCoverage(coverage: PointCoverage[]): JudgeVerdict {
  if (coverage.length === 0) return "unknown";
  if (coverage.some((c) => c.status === "missing")) return "fail";
  if (coverage.every((c) => c.status === "covered")) return "pass";
  return "unknown";
}

function rationaleOf(coverage: PointCoverage[], verdict: JudgeVerdict): string {
  if (coverage.length === 0) return "no expected points to check";
  const covered = coverage.filter((c) => c.status === "covered").length;
  const parts = [`${covered}/${coverage.length} points covered`];
  const missing = coverage.filter((c) => c.status === "missing").map((c) => c.point);
  const unsure = coverage.filter((c) => c.status === "partial" || c.status === "unclear").map((c) => c.point);
  if (missing.length) parts.push(`missing: ${missing.map((p) => `"${p}"`).join(", ")}`);
  if (unsure.length) parts.push(`unsure: ${unsure.map((p) => `"${p}"`).join(", ")}`);
  if (verdict === "unknown" && !missing.length && unsure.length) parts.push("needs a human look");
  return parts.join("; ");
}

/** The built-in point-coverage judge. `listItems` = items in the structured payload (count as an enumeration). */
export function coverageJudge(points: string[], answer: string, listItems = 0): JudgeResult {
  const index = indexAnswer(answer, listItems);
  const coverage = points.map((p) => judgePoint(p, index));
  const verdict = verdictFromCoverage(coverage);
  return {
    judge: "builtin-coverage",
    verdict,
    coverage,
    rationale: rationaleOf(coverage, verdict),
    judgedBy: BUILTIN_JUDGE,
  };
}

// ---------------------------------------------------------------- LLM judge

/** The provider surface the LLM judge needs (the runtime's getLlmProvider() satisfies it). */
export type JudgeProvider = {
  name: string;
  offline: boolean;
  chat(req: {
    messages: Array<{ role: "system" | "user" | "assistant"; content: string }>;
    model?: string;
    temperature?: number;
    maxTokens?: number;
    signal?: AbortSignal;
    /** the idempotency scope of the call (server/llm LlmRequest) */
    idempotencyScope?: string;
  }): Promise<{ text: string; usage: { promptTokens: number; completionTokens: number }; model: string }>;
};

export const JUDGE_RUBRIC = [
  "You are a strict evaluator of an AI assistant's answer. You get the user's question, the expected points and the answer.",
  "For EACH expected point decide whether the answer covers it (the meaning, not the exact words).",
  "A point is covered only if the answer states it; fabricated items, refusals and missing queries do not cover anything.",
  'Reply with JSON only: {"points":[{"index":0,"covered":true|false|null,"evidence":"short quote or reason"}],"rationale":"one sentence"}.',
  "Use null only when you cannot tell.",
].join("\n");

type LlmJudgeOut = {
  points?: Array<{ index?: number; covered?: boolean | null; evidence?: string }>;
  rationale?: string;
};

export function parseJudgeReply(text: string): LlmJudgeOut | null {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  try {
    const parsed = JSON.parse(text.slice(start, end + 1)) as unknown;
    return parsed && typeof parsed === "object" ? (parsed as LlmJudgeOut) : null;
  } catch {
    return null;
  }
}

/**
 * LLM judge with a rubric: one call per item. Points the model marks covered/not covered become covered/missing,
 * null becomes unclear; the verdict follows the same rule as the built-in judge. An unparseable reply yields
 * unknown (with `error`), never a pass.
 */
export async function llmJudge(
  provider: JudgeProvider,
  input: { question: string; points: string[]; answer: string; signal?: AbortSignal; idempotencyScope?: string },
): Promise<JudgeResult> {
  const judge = `llm:${provider.name}`;
  if (input.points.length === 0)
    return {
      judge,
      verdict: "unknown",
      coverage: [],
      rationale: "no expected points to check",
      judgedBy: llmJudgeRef(),
    };
  const user = JSON.stringify({
    question: input.question,
    expected_points: input.points.map((p, index) => ({ index, point: p })),
    answer: input.answer,
  });
  const reply = await provider.chat({
    messages: [
      { role: "system", content: JUDGE_RUBRIC },
      { role: "user", content: user },
    ],
    temperature: 0,
    maxTokens: 800,
    signal: input.signal,
    ...(input.idempotencyScope !== undefined ? { idempotencyScope: input.idempotencyScope } : {}),
  });
  const usage = {
    promptTokens: reply.usage.promptTokens,
    completionTokens: reply.usage.completionTokens,
    calls: 1,
    model: reply.model,
  };
  const parsed = parseJudgeReply(reply.text);
  if (!parsed || !Array.isArray(parsed.points)) {
    return {
      judge,
      verdict: "unknown",
      coverage: input.points.map((point) => ({ point, status: "unclear", score: 0, matched: [], missing: [] })),
      rationale: "the judge's reply could not be read",
      usage,
      judgedBy: llmJudgeRef(reply.model),
      error: `unparseable judge reply: ${reply.text.slice(0, 200)}`,
    };
  }
  const coverage: PointCoverage[] = input.points.map((point, i) => {
    const p = parsed.points!.find((x) => x.index === i) ?? parsed.points![i];
    const covered = p?.covered;
    const status: PointStatus = covered === true ? "covered" : covered === false ? "missing" : "unclear";
    return {
      point,
      status,
      score: covered === true ? 1 : 0,
      matched: [],
      missing: [],
      evidence: typeof p?.evidence === "string" ? p.evidence.slice(0, 300) : undefined,
    };
  });
  const verdict = verdictFromCoverage(coverage);
  const rationale =
    typeof parsed.rationale === "string" && parsed.rationale.trim()
      ? parsed.rationale.trim().slice(0, 300)
      : rationaleOf(coverage, verdict);
  return { judge, verdict, coverage, rationale, usage, judgedBy: llmJudgeRef(reply.model) };
}
