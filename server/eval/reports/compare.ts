/**
 * Comparing two runs question by question (pure). Questions are matched by sample key (stable across set versions).
 * The outcome uses human verdicts (what gates count); the machine outcome is shown beside it, never mixed.
 *   both_pass, fixed (a fail -> b pass), regressed (a pass -> b fail), both_fail,
 *   incomplete (a verdict is missing on either side), only_a / only_b (the question is in one run only).
 * Pass rates are passes / questions of that run. Warnings when the runs differ in set, set version, tier, mode,
 * agent or workflow version. Every question's outcome is computed here from light rows (key and verdicts), so a
 * 10,000-question comparison is cheap; `pageOfQuestions` filters and pages it, and the service attaches the text of
 * the questions on the page only.
 *
 * Each pass rate carries its 95 % Wilson interval over the run's judged (human) or suggested (machine) questions.
 * On two runs of the same set version, `paired` is the paired table over the questions both runs have a human
 * verdict for, with the exact McNemar test (statistics.ts); on different set versions (or sets) the questions may
 * differ under the same key, so there is no paired table and `pairedUnavailable` says why.
 */
import { formatP, mcnemarExact, roundedInterval, SIGNIFICANCE, wilson } from "./statistics";

export type CompareSide = "pass" | "fail" | "unknown" | null;
export type CompareRunInput = {
  id: string;
  shortId: string;
  setId: string;
  setVersionId: string;
  setVersion: number;
  tier: string;
  mode: string;
  agentId: string;
  workflowVersion: number;
  environment: string;
  /** light rows: the question's text is attached later, only for the questions a page shows */
  items: Array<{ itemId: string; key: string; human: "pass" | "fail" | null; machine: CompareSide }>;
};
export type Outcome = "both_pass" | "fixed" | "regressed" | "both_fail" | "incomplete" | "only_a" | "only_b";
export type CompareWarning = { code: string; message: string };

export const OUTCOMES = [
  "both_pass",
  "fixed",
  "regressed",
  "both_fail",
  "incomplete",
  "only_a",
  "only_b",
] as const satisfies readonly Outcome[];
/** Each outcome's name for people and its meaning (GET /api/eval/meta `compareOutcomes`). */
export const OUTCOME_WORDS: Record<Outcome, { label: string; meaning: string }> = {
  regressed: { label: "Regressed", meaning: "Passed in run A, failed in run B" },
  fixed: { label: "Fixed", meaning: "Failed in run A, passed in run B" },
  both_fail: { label: "Both fail", meaning: "Failed in both runs" },
  both_pass: { label: "Both pass", meaning: "Passed in both runs" },
  incomplete: { label: "Incomplete", meaning: "A human verdict is missing in either run" },
  only_a: { label: "Only in A", meaning: "The question is in run A only" },
  only_b: { label: "Only in B", meaning: "The question is in run B only" },
};
const zero = () => Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;

function outcome(a: CompareSide | undefined, b: CompareSide | undefined, inA: boolean, inB: boolean): Outcome {
  if (!inA) return "only_b";
  if (!inB) return "only_a";
  if ((a !== "pass" && a !== "fail") || (b !== "pass" && b !== "fail")) return "incomplete";
  if (a === "pass") return b === "pass" ? "both_pass" : "regressed";
  return b === "pass" ? "fixed" : "both_fail";
}

const rate = (n: number, d: number) => (d === 0 ? null : Math.round((n / d) * 10000) / 10000);

export function compareRuns(a: CompareRunInput, b: CompareRunInput) {
  const warnings: CompareWarning[] = [];
  if (a.setId !== b.setId) warnings.push({ code: "DIFFERENT_SET", message: "the runs use different evaluation sets" });
  else if (a.setVersionId !== b.setVersionId)
    warnings.push({
      code: "DIFFERENT_SET_VERSION",
      message: `the runs use different set versions (v${a.setVersion} vs v${b.setVersion}): questions are matched by key`,
    });
  if (a.tier !== b.tier)
    warnings.push({ code: "DIFFERENT_TIER", message: `the runs use different chain tiers (${a.tier} vs ${b.tier})` });
  if (a.mode !== b.mode)
    warnings.push({ code: "DIFFERENT_MODE", message: `the runs use different modes (${a.mode} vs ${b.mode})` });
  if (a.agentId !== b.agentId) warnings.push({ code: "DIFFERENT_AGENT", message: "the runs test different agents" });
  if (a.environment !== b.environment)
    warnings.push({
      code: "DIFFERENT_ENVIRONMENT",
      message: `different environments ("${a.environment}" vs "${b.environment}")`,
    });

  const byKeyA = new Map(a.items.map((i) => [i.key, i]));
  const byKeyB = new Map(b.items.map((i) => [i.key, i]));
  const keys = [...new Set([...a.items.map((i) => i.key), ...b.items.map((i) => i.key)])];
  const summary = zero();
  const machineSummary = zero();
  const questions = keys.map((key) => {
    const x = byKeyA.get(key);
    const y = byKeyB.get(key);
    const o = outcome(x?.human, y?.human, !!x, !!y);
    const mo = outcome(x?.machine, y?.machine, !!x, !!y);
    summary[o]++;
    machineSummary[mo]++;
    return {
      key,
      a: x ? { itemId: x.itemId, human: x.human, machine: x.machine } : null,
      b: y ? { itemId: y.itemId, human: y.human, machine: y.machine } : null,
      outcome: o,
      machineOutcome: mo,
    };
  });
  const count = (r: CompareRunInput, f: (i: CompareRunInput["items"][number]) => boolean) => r.items.filter(f).length;
  // a run without a single verdict (or suggestion) has no pass rate to compare: null, not 0 %
  const judged = { a: count(a, (i) => i.human !== null), b: count(b, (i) => i.human !== null) };
  const suggested = { a: count(a, (i) => i.machine !== null), b: count(b, (i) => i.machine !== null) };
  const share = (r: CompareRunInput, f: (i: CompareRunInput["items"][number]) => boolean) =>
    rate(count(r, f), r.items.length);
  const passes = (r: CompareRunInput, side: "human" | "machine") => count(r, (i) => i[side] === "pass");
  const interval = (k: number, n: number) => roundedInterval(wilson(k, n));
  const hA = judged.a ? share(a, (i) => i.human === "pass") : null;
  const hB = judged.b ? share(b, (i) => i.human === "pass") : null;
  const mA = suggested.a ? share(a, (i) => i.machine === "pass") : null;
  const mB = suggested.b ? share(b, (i) => i.machine === "pass") : null;
  const delta = (x: number | null, y: number | null) =>
    x === null || y === null ? null : Math.round((y - x) * 10000) / 10000;
  return {
    runA: {
      id: a.id,
      shortId: a.shortId,
      setVersion: a.setVersion,
      tier: a.tier,
      mode: a.mode,
      workflowVersion: a.workflowVersion,
      environment: a.environment,
      judged: judged.a,
      suggested: suggested.a,
    },
    runB: {
      id: b.id,
      shortId: b.shortId,
      setVersion: b.setVersion,
      tier: b.tier,
      mode: b.mode,
      workflowVersion: b.workflowVersion,
      environment: b.environment,
      judged: judged.b,
      suggested: suggested.b,
    },
    warnings,
    summary,
    machineSummary,
    passRates: {
      human: {
        a: hA,
        b: hB,
        delta: delta(hA, hB),
        n: judged,
        interval: { a: interval(passes(a, "human"), judged.a), b: interval(passes(b, "human"), judged.b) },
      },
      machine: {
        a: mA,
        b: mB,
        delta: delta(mA, mB),
        n: suggested,
        interval: { a: interval(passes(a, "machine"), suggested.a), b: interval(passes(b, "machine"), suggested.b) },
      },
    },
    ...pairedTable(a, b, summary),
    questions,
  };
}

/** Why two runs cannot be paired question by question (null: they can). */
function unpairable(
  a: CompareRunInput,
  b: CompareRunInput,
): { code: "DIFFERENT_SET" | "DIFFERENT_SET_VERSION"; reason: string } | null {
  if (a.setId !== b.setId)
    return {
      code: "DIFFERENT_SET",
      reason: "the runs use different evaluation sets: their questions are not the same questions",
    };
  if (a.setVersionId !== b.setVersionId)
    return {
      code: "DIFFERENT_SET_VERSION",
      reason: `the runs use different set versions (v${a.setVersion} vs v${b.setVersion}): a question under the same key may have changed, so only the rates with their intervals are compared`,
    };
  return null;
}

const questionsWord = (n: number) => `${n} ${n === 1 ? "question" : "questions"}`;

/**
 * The paired table of two runs of one frozen set version over the questions both have a human verdict for (the
 * human outcomes both_pass, regressed = A pass / B fail, fixed = A fail / B pass, both_fail), the exact McNemar
 * p-value of the discordant pairs and the sentence for people.
 */
export function pairedTable(a: CompareRunInput, b: CompareRunInput, summary: Record<Outcome, number>) {
  const why = unpairable(a, b);
  if (why) return { paired: null, pairedUnavailable: why };
  const bothPass = summary.both_pass;
  const onlyA = summary.regressed;
  const onlyB = summary.fixed;
  const bothFail = summary.both_fail;
  const n = bothPass + onlyA + onlyB + bothFail;
  const pValue = mcnemarExact(onlyA, onlyB);
  const significant = pValue < SIGNIFICANCE;
  const sentence =
    n === 0
      ? "No question has a human verdict in both runs yet: nothing to pair"
      : onlyA + onlyB === 0
        ? `A and B agree on all ${questionsWord(n)} both runs judged; no difference (${formatP(pValue)})`
        : `B is better on ${questionsWord(onlyB)} and worse on ${onlyA}; the difference is ${significant ? "" : "not "}significant (${formatP(pValue)})`;
  return {
    paired: { bothPass, onlyA, onlyB, bothFail, n, pValue, significant, sentence },
    pairedUnavailable: null,
  };
}
export type CompareResult = ReturnType<typeof compareRuns>;
type Row = CompareResult["questions"][number];

/**
 * One page of the comparison's questions (pure), filtered on the server: `keys` (the questions matching a text
 * search, when there is one), then `outcome`. `matching` counts the questions per outcome under the text search
 * (what the outcome filter can choose from); `total` is the number of questions left after both filters. Without
 * `limit` every remaining question is on the page (the original response).
 */
export function pageOfQuestions(
  questions: Row[],
  opts: { outcome?: Outcome; keys?: ReadonlySet<string>; offset?: number; limit?: number },
) {
  const searched = opts.keys ? questions.filter((q) => opts.keys!.has(q.key)) : questions;
  const matching = zero();
  for (const q of searched) matching[q.outcome]++;
  const filtered = opts.outcome ? searched.filter((q) => q.outcome === opts.outcome) : searched;
  const offset = Math.min(opts.offset ?? 0, filtered.length);
  const rows = opts.limit === undefined ? filtered.slice(offset) : filtered.slice(offset, offset + opts.limit);
  return { rows, page: { offset, limit: opts.limit ?? null, total: filtered.length, matching } };
}
