/**
 * Verdicts, bulk adoption and Bad Cases as operations (server/auth/operation.ts): declared once, served by REST
 * (server/http/endpoints/eval) and tRPC (`eval.items.verdict`, `eval.runs.adopt`, `eval.badCases.*`, ...).
 */
import { defineOperation } from "../../auth/operation";
import { pageOf } from "../../core/params";
import {
  adoptSuggestions,
  createBadCase,
  createBadCasesForRun,
  getBadCase,
  listBadCases,
  setVerdict,
  undoVerdict,
  updateBadCase,
} from "..";
import { EvalAdoptOut, EvalVerdictSetOut, EvalVerdictUndoOut, RunItemParams, RunParams } from "../runs/schemas";
import {
  AdoptInput,
  BadCaseCreatedOut,
  BadCaseDetailOut,
  BadCaseOut,
  BadCaseParams,
  CreateBadCaseInput,
  ListBadCasesQuery,
  RunBadCasesOut,
  UndoVerdictInput,
  UpdateBadCaseInput,
  VerdictInput,
} from "./schemas";

export const evalSetVerdict = defineOperation({
  id: "evalSetVerdict",
  trpc: "eval.items.verdict",
  kind: "mutation",
  permission: "eval.annotate",
  params: RunItemParams,
  body: VerdictInput,
  output: EvalVerdictSetOut,
  run: ({ db, params, body, principal }) => setVerdict(db, params.id, params.itemId, body, principal),
});

export const evalUndoVerdict = defineOperation({
  id: "evalUndoVerdict",
  trpc: "eval.items.undoVerdict",
  kind: "mutation",
  permission: "eval.annotate",
  params: RunItemParams,
  body: UndoVerdictInput,
  output: EvalVerdictUndoOut,
  run: ({ db, params, body, principal }) => undoVerdict(db, params.id, params.itemId, body, principal),
});

export const evalAdoptSuggestions = defineOperation({
  id: "evalAdoptSuggestions",
  trpc: "eval.runs.adopt",
  kind: "mutation",
  permission: "eval.annotate",
  params: RunParams,
  body: AdoptInput,
  output: EvalAdoptOut,
  run: ({ db, params, principal }) => adoptSuggestions(db, params.id, principal),
});

export const evalCreateBadCase = defineOperation({
  id: "evalCreateBadCase",
  trpc: "eval.items.badCase",
  kind: "mutation",
  permission: "eval.annotate",
  params: RunItemParams,
  body: CreateBadCaseInput,
  output: BadCaseCreatedOut,
  run: ({ db, params, body, principal }) => createBadCase(db, params.id, params.itemId, body, principal),
});

export const evalCreateRunBadCases = defineOperation({
  id: "evalCreateRunBadCases",
  trpc: "eval.runs.badCases",
  kind: "mutation",
  permission: "eval.annotate",
  params: RunParams,
  output: RunBadCasesOut,
  run: ({ db, params, principal }) => createBadCasesForRun(db, params.id, principal),
});

export const evalListBadCases = defineOperation({
  id: "evalListBadCases",
  trpc: "eval.badCases.list",
  kind: "query",
  permission: "eval.read",
  query: ListBadCasesQuery,
  output: pageOf(BadCaseOut),
  run: ({ db, query }) => listBadCases(db, query),
});

export const evalGetBadCase = defineOperation({
  id: "evalGetBadCase",
  trpc: "eval.badCases.get",
  kind: "query",
  permission: "eval.read",
  params: BadCaseParams,
  output: BadCaseDetailOut,
  run: ({ db, params }) => getBadCase(db, params.id),
});

export const evalUpdateBadCase = defineOperation({
  id: "evalUpdateBadCase",
  trpc: "eval.badCases.update",
  kind: "mutation",
  permission: "eval.annotate",
  params: BadCaseParams,
  body: UpdateBadCaseInput,
  output: BadCaseOut,
  run: ({ db, params, body, principal }) => updateBadCase(db, params.id, body, principal),
});
