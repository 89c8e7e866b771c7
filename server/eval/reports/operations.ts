/**
 * Reports, the gate, comparison and usage as operations (server/auth/operation.ts): declared once, served by REST
 * (server/http/endpoints/eval) and tRPC (`eval.runs.report`, `eval.runs.gate`, `eval.runs.compare`, `eval.usage`).
 */
import { defineOperation } from "../../auth/operation";
import { GATE_RULE, compare, runGate, runReport, usage } from "..";
import { RunParams } from "../runs/schemas";
import { CompareOut, CompareQuery, GateOut, ReportOut, UsageOut, UsageQuery } from "./schemas";

export const evalRunReport = defineOperation({
  id: "evalRunReport",
  trpc: "eval.runs.report",
  kind: "query",
  permission: "eval.read",
  description: [
    "Pass rates divide by all items (an unjudged item is not a pass); human.passRateOfJudged divides by judged items. Every pass rate (human and machine, overall, per tier and classification) carries n and its 95 % Wilson score interval { low, high } as fractions; unjudged questions are not in n (human: questions with a verdict; machine: with a suggestion). Breakdown by tier, classification (the verdict's, else the sample's), attribution and guardrail flag. Agreement: human-typed verdicts vs pass/fail suggestions (adopted verdicts and unknown suggestions excluded): raw agreement and Cohen's kappa (null without pairs or without variance).",
    `Completeness counts judged / total, human vs adopted. Latency: total, mean, p50, p95, max; tokens: answering prompt/completion/calls and judging tokens/calls. Agreement pairs are items with a pass/fail suggestion and a human-typed verdict: p_o = agreeing / pairs, kappa = (p_o - p_e) / (1 - p_e) with p_e the sum of the raters' category shares multiplied; no pairs: both null; p_e = 1 (one category for every pair): kappa null with a note, raw agreement 1; one rater constant but not the other: kappa 0. One SQL round trip per report. The gate: ${GATE_RULE}`,
  ].join(" "),
  params: RunParams,
  output: ReportOut,
  run: ({ db, params }) => runReport(db, params.id),
});

export const evalRunGate = defineOperation({
  id: "evalRunGate",
  trpc: "eval.runs.gate",
  kind: "query",
  permission: "eval.read",
  description: `${GATE_RULE} The summary names the 95 % Wilson interval of passes over the judged questions beside the count (\"27/30 human-confirmed passes, 95 % interval 74-97 %, threshold 26 …\"); the decision stays the threshold on the count. \`input\` lets a client re-evaluate with the same rule (check_eval_golden_gate does).`,
  params: RunParams,
  output: GateOut,
  run: ({ db, params }) => runGate(db, params.id),
});

export const evalCompareRuns = defineOperation({
  id: "evalCompareRuns",
  trpc: "eval.runs.compare",
  kind: "query",
  permission: "eval.read",
  description: [
    "Questions are matched by sample key. Per question: both_pass, fixed (a fail -> b pass), regressed (a pass -> b fail), both_fail, incomplete (a verdict missing), only_a / only_b; from human verdicts, with the machine outcome beside it. Pass-rate deltas (human and machine, separately), each rate with n and its 95 % Wilson interval; on two runs of the same set version `paired` is the paired table over the questions both have a human verdict for, with the exact two-sided McNemar p-value and a sentence (otherwise `paired` is null and `pairedUnavailable` says why); warnings when the runs differ in set, set version, tier, mode, agent or environment. Filters and pages run on the server: `outcome` and `q` narrow `questions`, `limit` + `offset` page them (`page.total` = questions after the filters, `page.matching` = per outcome under `q`); `summary`, `machineSummary`, `passRates` and `badCases` always describe the whole comparison. Without `limit` every question (after the filters) is returned: a client written before paging gets the same response, plus `page`.",
    "Warnings: DIFFERENT_SET, DIFFERENT_SET_VERSION, DIFFERENT_TIER, DIFFERENT_MODE, DIFFERENT_AGENT, DIFFERENT_ENVIRONMENT. pValue is the exact two-sided McNemar test, min(1, 2 P(X <= min(b, c))) with X ~ Binomial(b + c, 0.5), 1 when b + c = 0 (b = onlyA, c = onlyB; b = 3, c = 1: 0.625); significant below 0.05. `pairedUnavailable.code` is DIFFERENT_SET or DIFFERENT_SET_VERSION (a question under one key may differ). Each of run A's Bad Cases is marked with what run B says (`questions[].badCase.result`: fixed, still_failing, not_judged, not_in_b; totals in `badCases`).",
  ].join(" "),
  query: CompareQuery,
  output: CompareOut,
  run: ({ db, query }) => compare(db, query),
});

export const evalUsage = defineOperation({
  id: "evalUsage",
  trpc: "eval.usage",
  kind: "query",
  permission: "eval.read",
  description: [
    "Range: from/to (YYYY-MM-DD, UTC, inclusive; default the last 30 days, at most 366). Runs count by creation day, answered items and answering tokens by answer day, judging by suggestion day.",
    "Answer: `{ from, to, agentId, totals, days: [{ day, agentId, agentName, runs, answeredItems, answering: { modelCalls, promptTokens, completionTokens, tokens }, judging: { modelCalls, tokens } }] }`.",
  ].join(" "),
  query: UsageQuery,
  output: UsageOut,
  run: ({ db, query }) => usage(db, query),
});
