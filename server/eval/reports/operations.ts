/**
 * Reports, the gate, comparison and usage as operations (server/auth/operation.ts): declared once, served by REST
 * (server/http/endpoints/eval) and tRPC (`eval.runs.report`, `eval.runs.gate`, `eval.runs.compare`, `eval.sets.trend`, `eval.usage`).
 */
import { defineOperation } from "../../auth/operation";
import { compare, modelPrices, runGate, runReport, setModelPrices, setTrend, usage } from "..";
import { RunParams } from "../runs/schemas";
import { SetParams } from "../sets/schemas";
import { CompareAnyOut, CompareQuery, GateOut, ReportOut, TrendOut, UsageOut, UsageQuery } from "./schemas";
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
