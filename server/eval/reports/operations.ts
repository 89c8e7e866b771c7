/**
 * Reports, the gate, comparison and usage as operations (server/auth/operation.ts): declared once, served by REST
 * (server/http/endpoints/eval) and tRPC (`eval.runs.report`, `eval.runs.gate`, `eval.runs.compare`, `eval.usage`).
 */
import { defineOperation } from "../../auth/operation";
import { compare, runGate, runReport, usage } from "..";
import { RunParams } from "../runs/schemas";
import { CompareOut, CompareQuery, GateOut, ReportOut, UsageOut, UsageQuery } from "./schemas";

export const evalRunReport = defineOperation({
  id: "evalRunReport",
  trpc: "eval.runs.report",
  kind: "query",
  permission: "eval.read",
  description:
    "Pass rates divide by all items (an unjudged item is not a pass); human.passRateOfJudged divides by judged items. Every pass rate (human and machine, overall, per tier and classification) carries n and its 95 % Wilson score interval { low, high } as fractions; unjudged questions are not in n (human: questions with a verdict; machine: with a suggestion). Breakdown by tier, classification (the verdict's, else the sample's), attribution and guardrail flag. Agreement: human-typed verdicts vs pass/fail suggestions (adopted verdicts and unknown suggestions excluded): raw agreement and Cohen's kappa (null without pairs or without variance).",
  params: RunParams,
  output: ReportOut,
  run: ({ db, params }) => runReport(db, params.id),
});

export const evalRunGate = defineOperation({
  id: "evalRunGate",
  trpc: "eval.runs.gate",
  kind: "query",
  permission: "eval.read",
  description:
    "Passes only when the run's set is golden (a regression_pool run never passes), the run has finished answering, every question has a verdict (human or adopted; machine suggestions never count) and human-confirmed passes reach the set's threshold. `result.counts.interval` is the 95 % Wilson interval of passes over the judged questions, named in `summary` beside the count; the decision stays the threshold on the count. `input` lets a client re-evaluate with the same rule.",
  params: RunParams,
  output: GateOut,
  run: ({ db, params }) => runGate(db, params.id),
});

export const evalCompareRuns = defineOperation({
  id: "evalCompareRuns",
  trpc: "eval.runs.compare",
  kind: "query",
  permission: "eval.read",
  description:
    "Questions are matched by sample key. Per question: both_pass, fixed (a fail -> b pass), regressed (a pass -> b fail), both_fail, incomplete (a verdict missing), only_a / only_b; from human verdicts, with the machine outcome beside it. Pass-rate deltas (human and machine, separately), each rate with n and its 95 % Wilson interval; on two runs of the same set version `paired` is the paired table over the questions both have a human verdict for, with the exact two-sided McNemar p-value and a sentence (otherwise `paired` is null and `pairedUnavailable` says why); warnings when the runs differ in set, set version, tier, mode, agent or environment. Filters and pages run on the server: `outcome` and `q` narrow `questions`, `limit` + `offset` page them (`page.total` = questions after the filters, `page.matching` = per outcome under `q`); `summary`, `machineSummary`, `passRates` and `badCases` always describe the whole comparison. Without `limit` every question (after the filters) is returned: a client written before paging gets the same response, plus `page`.",
  query: CompareQuery,
  output: CompareOut,
  run: ({ db, query }) => compare(db, query),
});

export const evalUsage = defineOperation({
  id: "evalUsage",
  trpc: "eval.usage",
  kind: "query",
  permission: "eval.read",
  description:
    "Range: from/to (YYYY-MM-DD, UTC, inclusive; default the last 30 days, at most 366). Runs count by creation day, answered items and answering tokens by answer day, judging by suggestion day.",
  query: UsageQuery,
  output: UsageOut,
  run: ({ db, query }) => usage(db, query),
});
