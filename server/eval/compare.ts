/**
 * Comparing two runs question by question (pure). Questions are matched by sample key (stable across set versions).
 * The outcome uses human verdicts (what gates count); the machine outcome is shown beside it, never mixed.
 *   both_pass, fixed (a fail -> b pass), regressed (a pass -> b fail), both_fail,
 *   incomplete (a verdict is missing on either side), only_a / only_b (the question is in one run only).
 * Pass rates are passes / questions of that run. Warnings when the runs differ in set, set version, tier, mode,
 * agent or workflow version.
 */
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
  items: Array<{ itemId: string; key: string; question: string; classification: string; human: "pass" | "fail" | null; machine: CompareSide }>;
};
export type Outcome = "both_pass" | "fixed" | "regressed" | "both_fail" | "incomplete" | "only_a" | "only_b";
export type CompareWarning = { code: string; message: string };

const OUTCOMES: Outcome[] = ["both_pass", "fixed", "regressed", "both_fail", "incomplete", "only_a", "only_b"];

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
  else if (a.setVersionId !== b.setVersionId) warnings.push({ code: "DIFFERENT_SET_VERSION", message: `the runs use different set versions (v${a.setVersion} vs v${b.setVersion}): questions are matched by key` });
  if (a.tier !== b.tier) warnings.push({ code: "DIFFERENT_TIER", message: `the runs use different chain tiers (${a.tier} vs ${b.tier})` });
  if (a.mode !== b.mode) warnings.push({ code: "DIFFERENT_MODE", message: `the runs use different modes (${a.mode} vs ${b.mode})` });
  if (a.agentId !== b.agentId) warnings.push({ code: "DIFFERENT_AGENT", message: "the runs test different agents" });
  if (a.environment !== b.environment) warnings.push({ code: "DIFFERENT_ENVIRONMENT", message: `different environments ("${a.environment}" vs "${b.environment}")` });

  const byKeyA = new Map(a.items.map((i) => [i.key, i]));
  const byKeyB = new Map(b.items.map((i) => [i.key, i]));
  const keys = [...new Set([...a.items.map((i) => i.key), ...b.items.map((i) => i.key)])];
  const summary = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  const machineSummary = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  const questions = keys.map((key) => {
    const x = byKeyA.get(key);
    const y = byKeyB.get(key);
    const o = outcome(x?.human, y?.human, !!x, !!y);
    const mo = outcome(x?.machine, y?.machine, !!x, !!y);
    summary[o]++;
    machineSummary[mo]++;
    return {
      key,
      question: (y ?? x)!.question,
      classification: (y ?? x)!.classification,
      a: x ? { itemId: x.itemId, human: x.human, machine: x.machine } : null,
      b: y ? { itemId: y.itemId, human: y.human, machine: y.machine } : null,
      outcome: o,
      machineOutcome: mo,
    };
  });
  const count = (r: CompareRunInput, f: (i: CompareRunInput["items"][number]) => boolean) => r.items.filter(f).length;
  const hA = rate(count(a, (i) => i.human === "pass"), a.items.length);
  const hB = rate(count(b, (i) => i.human === "pass"), b.items.length);
  const mA = rate(count(a, (i) => i.machine === "pass"), a.items.length);
  const mB = rate(count(b, (i) => i.machine === "pass"), b.items.length);
  const delta = (x: number | null, y: number | null) => (x === null || y === null ? null : Math.round((y - x) * 10000) / 10000);
  return {
    runA: { id: a.id, shortId: a.shortId, setVersion: a.setVersion, tier: a.tier, mode: a.mode, workflowVersion: a.workflowVersion, environment: a.environment },
    runB: { id: b.id, shortId: b.shortId, setVersion: b.setVersion, tier: b.tier, mode: b.mode, workflowVersion: b.workflowVersion, environment: b.environment },
    warnings,
    summary,
    machineSummary,
    passRates: {
      human: { a: hA, b: hB, delta: delta(hA, hB) },
      machine: { a: mA, b: mB, delta: delta(mA, mB) },
    },
    questions,
  };
}
export type CompareResult = ReturnType<typeof compareRuns>;
