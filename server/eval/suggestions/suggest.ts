import type { JudgeResult, PointCoverage } from "./judge";
import type { Flag } from "./guardrails";
import type { RuleResult } from "./rules";
import type { JudgeRef } from "./schemas";

/**
 * A machine suggestion: assistance for the human, never counted by a gate. Pure.
 *
 * verdict:
 *   fail    when the execution failed or the answer is empty (execution_error, empty_answer), a blocking guardrail
 *           fired (no_query, fabricated_items, refusal), any rule assertion failed, or the judge found a point missing;
 *   unknown when the judge could not decide (partial/unclear points, no expected points, unreadable LLM reply), or
 *           the judge says pass but the item carries a non-blocking flag (empty_items);
 *   pass    otherwise (every point covered, every rule passed, no flag).
 */
export type SuggestionVerdict = "pass" | "fail" | "unknown";
export type Suggestion = {
  verdict: SuggestionVerdict;
  judge: string;
  /** the judge that made it (absent on suggestions stored before judges were recorded) */
  judgedBy?: JudgeRef;
  coverage: PointCoverage[];
  failedRules: RuleResult[];
  rulesPassed: number;
  flags: Flag[];
  rationale: string;
  judgeError?: string;
};

export const BLOCKING_FLAGS = new Set(["execution_error", "empty_answer", "no_query", "fabricated_items", "refusal"]);

export function combineSuggestion(judge: JudgeResult, rules: RuleResult[], flags: Flag[]): Suggestion {
  const failedRules = rules.filter((r) => !r.passed);
  const blocking = flags.filter((f) => BLOCKING_FLAGS.has(f.flag));
  let verdict: SuggestionVerdict;
  if (blocking.length || failedRules.length || judge.verdict === "fail") verdict = "fail";
  else if (judge.verdict === "unknown" || flags.length) verdict = "unknown";
  else verdict = "pass";
  const parts: string[] = [];
  if (blocking.length) parts.push(`guardrail: ${blocking.map((f) => f.flag).join(", ")}`);
  if (failedRules.length)
    parts.push(
      `rule failed: ${failedRules
        .map((r) => r.label)
        .slice(0, 3)
        .join("; ")}${failedRules.length > 3 ? "; ..." : ""}`,
    );
  parts.push(judge.rationale);
  const other = flags.filter((f) => !BLOCKING_FLAGS.has(f.flag));
  if (other.length) parts.push(`flagged: ${other.map((f) => f.flag).join(", ")}`);
  return {
    verdict,
    judge: judge.judge,
    ...(judge.judgedBy ? { judgedBy: judge.judgedBy } : {}),
    coverage: judge.coverage,
    failedRules,
    rulesPassed: rules.length - failedRules.length,
    flags,
    rationale: parts.join("; ").slice(0, 600),
    ...(judge.error ? { judgeError: judge.error } : {}),
  };
}

/**
 * The stored shape's names. A suggestion is kept as jsonb (EvalRunItem.suggestion); SQL (reports.ts) and Prisma JSON
 * filters (runs/item-rows.ts) read it through these names only, checked against the type here.
 */
const VERDICT_KEY = "verdict" satisfies keyof Suggestion;
const FLAGS_KEY = "flags" satisfies keyof Suggestion;
const FLAG_NAME_KEY = "flag" satisfies keyof Flag;
export const SUGGESTION_JSON = {
  verdict: VERDICT_KEY,
  flags: FLAGS_KEY,
  /** jsonpath of every flag name: `$.flags[*].flag` */
  flagNamesPath: `$.${FLAGS_KEY}[*].${FLAG_NAME_KEY}`,
} as const;

/**
 * The spot-check rule, as data, so the code (`needsSpotCheck`) and the database filter (runs/item-rows.ts `spotCheckWhere`)
 * are one rule: a suggestion whose verdict is fail or unknown, or that carries any guardrail flag.
 */
export const SPOT_CHECK = { verdicts: ["fail", "unknown"] as readonly SuggestionVerdict[], anyFlag: true } as const;

/**
 * A spot-check item is "left" until a person has typed a verdict on it (confirming the adopted one counts): no verdict,
 * or a verdict adopted in bulk. The gate (gate.ts) is pending while any is left; the queue's tag and its P/F/N follow it.
 * `audit`: the item was drawn by an adoption's audit of its passes (verdicts/audit-sample.ts), which puts it on the
 * list too.
 */
export function spotCheckLeft(
  s: { verdict: SuggestionVerdict; flags: readonly unknown[] } | null | undefined,
  verdict: { source: "human" | "adopted" } | null,
  audit = false,
): boolean {
  return (needsSpotCheck(s) || audit) && (!verdict || verdict.source === "adopted");
}

/** Spot-check after bulk adoption (SPOT_CHECK). `flags`: the flags or their names (only whether any fired counts). */
export function needsSpotCheck(
  s: { verdict: SuggestionVerdict; flags: readonly unknown[] } | null | undefined,
): boolean {
  if (!s) return false;
  return SPOT_CHECK.verdicts.includes(s.verdict) || (SPOT_CHECK.anyFlag && s.flags.length > 0);
}

/** The attribution an adopted fail gets (a fail verdict needs one): derived from the strongest signal. */
export function inferAttribution(s: Pick<Suggestion, "flags" | "failedRules">): string {
  const has = (f: string) => s.flags.some((x) => x.flag === f);
  if (has("no_query")) return "retrieval";
  if (has("execution_error")) return "tool";
  if (has("refusal")) return "guardrail";
  if (has("empty_items")) return "data";
  return "generation";
}
