/**
 * Reports, the gate, comparison and usage as operations (server/auth/operation.ts): declared once, served by REST
 * (server/http/endpoints/eval) and tRPC (`eval.runs.report`, `eval.runs.gate`, `eval.runs.compare`, `eval.sets.trend`, `eval.usage`).
 */
import { defineOperation } from "../../auth/operation";
import { compare, getJob, modelPrices, runGate, runReport, setCalibration, setModelPrices, setTrend, usage } from "..";
import { RunParams } from "../runs/schemas";
import { EvalJobOut, JobParams, SetParams } from "../sets/schemas";
import {
  CalibrationOut,
  CalibrationQuery,
  CompareAnyOut,
  CompareQuery,
  GateOut,
  ReportOut,
  TrendOut,
  UsageOut,
  UsageQuery,
} from "./schemas";
import { ModelPricesIn, ModelPricesOut } from "../../core/prices";

export const evalRunReport = defineOperation({
  id: "evalRunReport",
  trpc: "eval.runs.report",
  kind: "query",
  permission: "eval.read",
  params: RunParams,
  output: ReportOut,
  run: ({ db, params }) => runReport(db, params.id),
});

export const evalRunGate = defineOperation({
  id: "evalRunGate",
  trpc: "eval.runs.gate",
  kind: "query",
  permission: "eval.read",
  params: RunParams,
  output: GateOut,
  run: ({ db, params }) => runGate(db, params.id),
});

export const evalCompareRuns = defineOperation({
  id: "evalCompareRuns",
  trpc: "eval.runs.compare",
  kind: "query",
  permission: "eval.read",
  query: CompareQuery,
  output: CompareAnyOut,
  run: ({ db, query }) => compare(db, query),
});

export const evalSetTrend = defineOperation({
  id: "evalSetTrend",
  trpc: "eval.sets.trend",
  kind: "query",
  permission: "eval.read",
  params: SetParams,
  output: TrendOut,
  run: ({ db, params }) => setTrend(db, params.id),
});

export const evalSetCalibration = defineOperation({
  id: "evalSetCalibration",
  trpc: "eval.sets.calibration",
  kind: "query",
  permission: "eval.read",
  description: [
    "How far to trust a judge on this set: over every item of the set's runs with a human-typed verdict (adopted verdicts excluded: they are the judge agreeing with itself), the judge's suggestions against the people's verdicts.",
    "`judge`: builtin, llm or agent:<agentId>@<version> (default the set's current judge; anything else 400 REQUEST_INVALID).",
    "Figures (each `{ value, count, of }`): the 2x2 `matrix` (judge first: passFail = the judge said pass, the person fail), `agreement`, Cohen's `kappa`, `failPrecision` (real fails among the judge's fails), `failRecall` (the people's fails the judge caught), `unknownRate`; `n` = items the judge suggested on, `pairs` = those with a pass or fail suggestion.",
    "The same per scenario (`byScenario`, the sample's classification) and per attribution of the human fails (`byAttribution`); every judge with suggestions on these items side by side (`judges`: the run's own judge and the other judges' kept in otherSuggestions) and the items where one says pass and another fail (`disagreements`, at most 200; `disagreementsTotal`).",
    'Fewer than 20 items: the figures with note "too few verdicts to judge the judge"; a set without human-typed verdicts: zero counts with the reason.',
  ].join(" "),
  params: SetParams,
  query: CalibrationQuery,
  output: CalibrationOut,
  run: ({ db, params, query }) => setCalibration(db, params.id, query),
});

export const evalUsage = defineOperation({
  id: "evalUsage",
  trpc: "eval.usage",
  kind: "query",
  permission: "eval.read",
  query: UsageQuery,
  output: UsageOut,
  run: ({ db, query }) => usage(db, query),
});

/** The model price table (server/core/prices.ts): admins only; what reports and usage turn tokens into money with. */
export const adminGetModelPrices = defineOperation({
  id: "adminGetModelPrices",
  trpc: "admin.modelPrices.get",
  kind: "query",
  permission: "admin",
  output: ModelPricesOut,
  run: ({ db }) => modelPrices(db),
});

export const adminPutModelPrices = defineOperation({
  id: "adminPutModelPrices",
  trpc: "admin.modelPrices.put",
  kind: "mutation",
  permission: "admin",
  body: ModelPricesIn,
  output: ModelPricesOut,
  run: ({ db, body }) => setModelPrices(db, body),
});

export const evalGetJob = defineOperation({
  id: "evalGetJob",
  trpc: "eval.jobs.get",
  kind: "query",
  permission: "eval.read",
  description: [
    "A background job of the evaluation center and its progress. kind judge_comparison: a set's judge switch (PATCH /api/eval/sets/{id} with judge answered 202) whose candidate had no suggestions on the set's human-typed items: the candidate judges them (progress: done of total), then the switch is decided as the PATCH decides it, with the request's force and reason.",
    "status running, then succeeded (result.switched true: the set's judge is the candidate; false: refused, result.refusal is the 409 JUDGE_AGREEMENT_DROP with both judges' figures) or failed (error: the candidate could not be checked any more, or a later judge request superseded it: JUDGE_COMPARISON_SUPERSEDED).",
  ].join(" "),
  params: JobParams,
  output: EvalJobOut,
  run: ({ db, params }) => getJob(db, params.id),
});
