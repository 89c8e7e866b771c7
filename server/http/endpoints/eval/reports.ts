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
  summary: "Compare two runs question by question, or 2 to 8 runs of one set version in a question x run grid",
  description:
    "Two forms. **Two runs** (`run_a` + `run_b`, any sets; the answer has `runA`/`runB`): questions are matched by sample key. Per question: both_pass, fixed (a fail -> b pass), regressed (a pass -> b fail), both_fail, incomplete (a verdict missing), only_a / only_b; from human verdicts, with the machine outcome beside it. Pass-rate deltas (human and machine, separately), each rate with n and its 95 % Wilson interval; on two runs of the same set version `paired` is the paired table over the questions both have a human verdict for, with the exact two-sided McNemar p-value and a sentence (otherwise `paired` is null and `pairedUnavailable` says why); warnings when the runs differ in set, set version, tier, mode, agent or environment. Filters and pages run on the server: `outcome` and `q` narrow `questions`, `limit` + `offset` page them (`page.total` = questions after the filters, `page.matching` = per outcome under `q`); `summary`, `machineSummary`, `passRates` and `badCases` always describe the whole comparison. Without `limit` every question (after the filters) is returned: a client written before paging gets the same response, plus `page`. " +
    "**Many runs** (`run` repeated 2 to 8 times: `run=R-1&run=R-2&run=R-3`; the answer has `runs`): runs of one agent on one frozen set version, ordered oldest first (the last is the latest). Per run: the human-confirmed pass rate over its judged questions with its 95 % Wilson interval and n (and the machine's beside it); a run without a human verdict says `note: \"no verdicts yet\"` and has a null rate. Per question: each run's human verdict and suggestion (`cells`, in the order of `runs`), `changed` (its verdicts include a pass and a fail) and `failingLatest`; `counts` over all questions. Filters: `changed=true`, `failing_latest=true`, `q`; pages: `limit` + `offset`. Runs of different agents or set versions: 400 RUNS_NOT_COMPARABLE naming them; more than 8 runs: 400 REQUEST_INVALID naming the limit; the same run twice, fewer than 2, or the forms mixed (`run` with `run_a`, `run_b` or `outcome`; `changed`/`failing_latest` with the two-run form): 400 REQUEST_INVALID.",
  responses: {
    200: "The comparison: EvalCompare for run_a + run_b, EvalCompareMany for run",
    ...invalid("Invalid query (REQUEST_INVALID), or runs of different agents or set versions (RUNS_NOT_COMPARABLE)"),
    ...notFound,
  },
});

export const evalSetTrend = rest(op.evalSetTrend, {
  ...base,
  method: "GET",
  path: "/api/eval/sets/{id}/trend",
  summary: "A set's human-confirmed pass rate over time, with intervals, per version and tier",
  description:
    "Every run of the set is a point: human-confirmed passes over its judged questions (`rate`, unjudged questions are not in `n`) with the 95 % Wilson score interval, the agent version it answered with (`workflowVersion`), its status and mode. Points are grouped into one series per set version and tier (runs of one version and tier ask the same questions the same way), oldest first. A run without a verdict has a null rate and interval.",
  responses: { 200: "The trend", ...notFound },
});

export const evalSetCalibration = rest(op.evalSetCalibration, {
  ...base,
  method: "GET",
  path: "/api/eval/sets/{id}/calibration",
  summary:
    "How far to trust a judge on a set: its suggestions against human-typed verdicts, per scenario and attribution, judges side by side",
  responses: {
    200: "The calibration (zero counts and the reason when there are no human-typed verdicts)",
    ...invalid("judge is not builtin, llm or agent:<agentId>@<version> (REQUEST_INVALID)"),
    ...notFound,
  },
});

export const evalGetJob = rest(op.evalGetJob, {
  ...base,
  method: "GET",
  path: "/api/eval/jobs/{id}",
  summary: "A background job (a judge comparison) and its progress",
  responses: { 200: "The job", ...notFound },
});
