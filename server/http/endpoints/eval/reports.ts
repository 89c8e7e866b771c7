import { rest } from "../../rest";
import * as op from "../../../eval/operations";
import { base, notFound, invalid } from "./shared";

/** Report, gate, comparison over REST (/api/eval/*); handlers only call server/eval. */

export const evalRunReport = rest(op.evalRunReport, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/report",
  summary:
    "Run report: machine and human-confirmed pass rates side by side (never mixed), completeness, breakdowns, agreement, latency, tokens, gate",
  description:
    "Pass rates divide by all items (an unjudged item is not a pass); human.passRateOfJudged divides by judged items. Every pass rate (human and machine, overall, per tier and classification) carries n and its 95 % Wilson score interval { low, high } as fractions; unjudged questions are not in n (human: questions with a verdict; machine: with a suggestion). Breakdown by tier, classification (the verdict's, else the sample's), attribution and guardrail flag. Agreement: human-typed verdicts vs pass/fail suggestions (adopted verdicts and unknown suggestions excluded): raw agreement and Cohen's kappa (null without pairs or without variance).",
  responses: { 200: "The report", ...notFound },
});

export const evalRunGate = rest(op.evalRunGate, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/gate",
  summary: "The golden gate for a run (what check_eval_golden_gate reads)",
  description:
    "Passes only when the run's set is golden (a regression_pool run never passes), the run has finished answering, every question has a verdict (human or adopted; machine suggestions never count) and human-confirmed passes reach the set's threshold. `result.counts.interval` is the 95 % Wilson interval of passes over the judged questions, named in `summary` beside the count; the decision stays the threshold on the count. `input` lets a client re-evaluate with the same rule.",
  responses: { 200: "Gate input and result", ...notFound },
});

export const evalCompareRuns = rest(op.evalCompareRuns, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/compare",
  summary: "Compare two runs question by question",
  description:
    "Questions are matched by sample key. Per question: both_pass, fixed (a fail -> b pass), regressed (a pass -> b fail), both_fail, incomplete (a verdict missing), only_a / only_b; from human verdicts, with the machine outcome beside it. Pass-rate deltas (human and machine, separately), each rate with n and its 95 % Wilson interval; on two runs of the same set version `paired` is the paired table over the questions both have a human verdict for, with the exact two-sided McNemar p-value and a sentence (otherwise `paired` is null and `pairedUnavailable` says why); warnings when the runs differ in set, set version, tier, mode, agent or environment. Filters and pages run on the server: `outcome` and `q` narrow `questions`, `limit` + `offset` page them (`page.total` = questions after the filters, `page.matching` = per outcome under `q`); `summary`, `machineSummary`, `passRates` and `badCases` always describe the whole comparison. Without `limit` every question (after the filters) is returned: a client written before paging gets the same response, plus `page`.",
  responses: { 200: "The comparison", ...invalid(), ...notFound },
});
