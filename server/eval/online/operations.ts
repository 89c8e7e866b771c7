/**
 * The online feedback loop as operations (server/auth/operation.ts): declared once, served by REST
 * (server/http/endpoints/eval) and tRPC (`eval.online.*`).
 */
import { defineOperation } from "../../auth/operation";
import {
  addTraceToPool,
  confirmSample,
  dismissLead,
  leadsPerDay,
  listLeads,
  loopBoard,
  restoreLead,
  unconfirmSample,
} from "..";
import { EvalSampleOut } from "../sets/schemas";
import {
  BoardQuery,
  ConfirmParams,
  DismissLeadInput,
  LeadCountsOut,
  LeadCountsQuery,
  LeadsPageOut,
  LeadsQuery,
  LeadStatusOut,
  LoopBoardOut,
  PoolAddInput,
  PoolAddOut,
  PoolParams,
  TraceParam,
} from "./schemas";

export const evalListLeads = defineOperation({
  id: "evalListLeads",
  trpc: "eval.online.leads",
  kind: "query",
  permission: "eval.read",
  query: LeadsQuery,
  output: LeadsPageOut,
  run: ({ db, query }) => listLeads(db, query),
});

export const evalLeadCounts = defineOperation({
  id: "evalLeadCounts",
  trpc: "eval.online.leadCounts",
  kind: "query",
  permission: "eval.read",
  query: LeadCountsQuery,
  output: LeadCountsOut,
  run: ({ db, query }) => leadsPerDay(db, query),
});

export const evalDismissLead = defineOperation({
  id: "evalDismissLead",
  trpc: "eval.online.dismiss",
  kind: "mutation",
  permission: "eval.manage",
  params: TraceParam,
  body: DismissLeadInput,
  output: LeadStatusOut,
  run: ({ db, params, body, principal }) => dismissLead(db, params.traceId, body, principal),
});

export const evalRestoreLead = defineOperation({
  id: "evalRestoreLead",
  trpc: "eval.online.restore",
  kind: "mutation",
  permission: "eval.manage",
  params: TraceParam,
  output: LeadStatusOut,
  run: ({ db, params }) => restoreLead(db, params.traceId),
});

export const evalAddToPool = defineOperation({
  id: "evalAddToPool",
  trpc: "eval.online.addToPool",
  kind: "mutation",
  permission: "eval.manage",
  params: PoolParams,
  body: PoolAddInput,
  output: PoolAddOut,
  run: ({ db, params, body, principal }) => addTraceToPool(db, params.id, body, principal),
});

export const evalLoopBoard = defineOperation({
  id: "evalLoopBoard",
  trpc: "eval.online.board",
  kind: "query",
  permission: "eval.read",
  query: BoardQuery,
  output: LoopBoardOut,
  run: ({ db, query }) => loopBoard(db, query),
});

export const evalConfirmSample = defineOperation({
  id: "evalConfirmSample",
  trpc: "eval.online.confirm",
  kind: "mutation",
  permission: "eval.manage",
  params: ConfirmParams,
  output: EvalSampleOut,
  run: ({ db, params, principal }) => confirmSample(db, params.id, principal),
});

export const evalUnconfirmSample = defineOperation({
  id: "evalUnconfirmSample",
  trpc: "eval.online.unconfirm",
  kind: "mutation",
  permission: "eval.manage",
  params: ConfirmParams,
  output: EvalSampleOut,
  run: ({ db, params }) => unconfirmSample(db, params.id),
});
