import {
  type JudgeProvider,
  type JudgeResult,
  type PointCoverage,
  llmJudgeRef,
  parseJudgeReply,
  verdictFromCoverage,
} from "./judge";

/**
 * The LLM judge without a reference (online answers have no expected points): a rubric of three criteria, each
 * judged by the model: the answer addresses the user's question; it uses what the agent's queries returned (only
 * when the agent made queries); it invents nothing (no item, price or fact that neither the queries nor the question
 * give). The criteria are the result's coverage (covered = the criterion is met, missing = it is not, unclear = the
 * model could not tell) and the verdict follows the same rule as every judge (server/eval/suggestions/judge.ts): one
 * criterion missing is fail, all met is pass, otherwise unknown. An unreadable reply is unknown with the reason,
 * never a pass. Pure but for the provider call.
 */
export const REFERENCE_FREE_CRITERIA = {
  addresses: "addresses the user's question",
  uses_results: "uses what the agent's queries returned",
  invents_nothing: "invents nothing",
} as const;
type Criterion = keyof typeof REFERENCE_FREE_CRITERIA;

export const REFERENCE_FREE_RUBRIC = [
  "You are a strict evaluator of an AI assistant's answer to a user. There is no reference answer: judge the answer against the question and what the assistant's own queries returned.",
  "Decide each criterion you are given:",
  '- "addresses": does the answer address what the user asked (not another question, not a refusal without reason)?',
  '- "uses_results": does the answer use what the queries returned (the items, prices and facts in query_results), rather than ignoring them?',
  '- "invents_nothing": is everything the answer states supported by the question, the conversation or the query results (no invented items, prices or facts)?',
  'Reply with JSON only: {"criteria":{"addresses":true|false|null,"uses_results":true|false|null,"invents_nothing":true|false|null},"rationale":"one sentence naming what is wrong, if anything"}.',
  "Use null only when you cannot tell. Leave out criteria you were not given.",
].join("\n");

export type ReferenceFreeInput = {
  question: string;
  answer: string;
  /** earlier turns of the conversation, oldest first */
  conversation?: Array<{ role: string; content: string }>;
  /** what the agent's queries (http steps) returned; empty when it made none */
  queryResults: unknown[];
  payload?: unknown;
  signal?: AbortSignal;
  idempotencyScope?: string;
};

const clip = (v: unknown, n: number) => {
  const s = typeof v === "string" ? v : JSON.stringify(v ?? null);
  return s.length > n ? `${s.slice(0, n)}…` : s;
};

export async function referenceFreeJudge(provider: JudgeProvider, input: ReferenceFreeInput): Promise<JudgeResult> {
  const judge = `llm:${provider.name}`;
  const criteria: Criterion[] = input.queryResults.length
    ? ["addresses", "uses_results", "invents_nothing"]
    : ["addresses", "invents_nothing"];
  const user = JSON.stringify({
    criteria,
    question: input.question,
    ...(input.conversation?.length ? { conversation: input.conversation.slice(-6) } : {}),
    query_results: input.queryResults.map((r) => clip(r, 2000)).slice(0, 5),
    ...(input.payload != null ? { payload: clip(input.payload, 2000) } : {}),
    answer: input.answer,
  });
  const reply = await provider.chat({
    messages: [
      { role: "system", content: REFERENCE_FREE_RUBRIC },
      { role: "user", content: user },
    ],
    temperature: 0,
    maxTokens: 400,
    signal: input.signal,
    ...(input.idempotencyScope !== undefined ? { idempotencyScope: input.idempotencyScope } : {}),
  });
  const usage = {
    promptTokens: reply.usage.promptTokens,
    completionTokens: reply.usage.completionTokens,
    calls: 1,
    model: reply.model,
  };
  const parsed = parseJudgeReply(reply.text) as { criteria?: Record<string, unknown>; rationale?: unknown } | null;
  const given = parsed?.criteria && typeof parsed.criteria === "object" ? parsed.criteria : null;
  const coverage: PointCoverage[] = criteria.map((c) => {
    const v = given?.[c];
    return {
      point: REFERENCE_FREE_CRITERIA[c],
      status: v === true ? "covered" : v === false ? "missing" : "unclear",
      score: v === true ? 1 : 0,
      matched: [],
      missing: [],
    };
  });
  if (!given)
    return {
      judge,
      verdict: "unknown",
      coverage,
      rationale: "the judge's reply could not be read",
      usage,
      judgedBy: llmJudgeRef(reply.model),
      error: `unparseable judge reply: ${reply.text.slice(0, 200)}`,
    };
  const verdict = verdictFromCoverage(coverage);
  const failed = coverage.filter((c) => c.status === "missing").map((c) => c.point);
  const rationale =
    typeof parsed?.rationale === "string" && parsed.rationale.trim()
      ? parsed.rationale.trim().slice(0, 300)
      : failed.length
        ? `the answer does not meet: ${failed.join(", ")}`
        : verdict === "pass"
          ? "every criterion is met"
          : "the judge could not tell every criterion";
  return { judge, verdict, coverage, rationale, usage, judgedBy: llmJudgeRef(reply.model) };
}
