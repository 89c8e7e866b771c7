/**
 * Runs, pasted answers and a run's items as operations (server/auth/operation.ts): declared once, served by REST
 * (server/http/endpoints/eval) and tRPC (`eval.runs.*`, `eval.items.*`).
 */
import { defineOperation } from "../../auth/operation";
import { pageOf } from "../../core/params";
import {
  cancelRun,
  closeAnswering,
  createRun,
  getItem,
  getRun,
  listItems,
  listQueue,
  listRuns,
  queueNeighbours,
  rerunRun,
  resuggestRun,
  reviewProgress,
  startRun,
  submitPastedAnswers,
} from "..";
import {
  CreateRunInput,
  EvalCloseAnsweringOut,
  EvalItemDetailOut,
  EvalItemListOut,
  EvalPastedAnswersOut,
  EvalQueueNeighboursOut,
  EvalQueueOut,
  EvalResuggestOut,
  EvalReviewProgressOut,
  EvalRunOut,
  ListItemsQuery,
  ListRunsQuery,
  PastedAnswersInput,
  QueueFilterQuery,
  RerunInput,
  RunItemParams,
  RunParams,
} from "./schemas";

export const evalCreateRun = defineOperation({
  id: "evalCreateRun",
  trpc: "eval.runs.create",
  kind: "mutation",
  permission: "eval.manage",
  body: CreateRunInput,
  output: EvalRunOut,
  run: ({ db, body, principal }) => createRun(db, body, principal),
});

export const evalListRuns = defineOperation({
  id: "evalListRuns",
  trpc: "eval.runs.list",
  kind: "query",
  permission: "eval.read",
  query: ListRunsQuery,
  output: pageOf(EvalRunOut),
  run: ({ db, query }) => listRuns(db, query),
});

export const evalGetRun = defineOperation({
  id: "evalGetRun",
  trpc: "eval.runs.get",
  kind: "query",
  permission: "eval.read",
  params: RunParams,
  output: EvalRunOut,
  run: ({ db, params }) => getRun(db, params.id),
});

export const evalStartRun = defineOperation({
  id: "evalStartRun",
  trpc: "eval.runs.start",
  kind: "mutation",
  permission: "eval.manage",
  params: RunParams,
  output: EvalRunOut,
  run: ({ db, params }) => startRun(db, params.id),
});

export const evalCancelRun = defineOperation({
  id: "evalCancelRun",
  trpc: "eval.runs.cancel",
  kind: "mutation",
  permission: "eval.manage",
  params: RunParams,
  output: EvalRunOut,
  run: ({ db, params }) => cancelRun(db, params.id),
});

export const evalCloseAnswering = defineOperation({
  id: "evalCloseAnswering",
  trpc: "eval.runs.close",
  kind: "mutation",
  permission: "eval.manage",
  params: RunParams,
  output: EvalCloseAnsweringOut,
  run: ({ db, params }) => closeAnswering(db, params.id),
});

export const evalRerun = defineOperation({
  id: "evalRerun",
  trpc: "eval.runs.rerun",
  kind: "mutation",
  permission: "eval.manage",
  params: RunParams,
  body: RerunInput,
  output: EvalRunOut,
  run: ({ db, params, body, principal }) => rerunRun(db, params.id, body, principal),
});

export const evalPasteAnswers = defineOperation({
  id: "evalPasteAnswers",
  trpc: "eval.runs.answers",
  kind: "mutation",
  permission: "eval.manage",
  params: RunParams,
  body: PastedAnswersInput,
  output: EvalPastedAnswersOut,
  run: ({ db, params, body }) => submitPastedAnswers(db, params.id, body),
});

export const evalResuggest = defineOperation({
  id: "evalResuggest",
  trpc: "eval.runs.suggest",
  kind: "mutation",
  permission: "eval.manage",
  params: RunParams,
  output: EvalResuggestOut,
  run: ({ db, params }) => resuggestRun(db, params.id),
});

export const evalListItems = defineOperation({
  id: "evalListItems",
  trpc: "eval.items.list",
  kind: "query",
  permission: "eval.read",
  params: RunParams,
  query: ListItemsQuery,
  output: EvalItemListOut,
  run: ({ db, params, query }) => listItems(db, params.id, query),
});

export const evalListQueue = defineOperation({
  id: "evalListQueue",
  trpc: "eval.items.queue",
  kind: "query",
  permission: "eval.read",
  params: RunParams,
  query: ListItemsQuery,
  output: EvalQueueOut,
  run: ({ db, params, query }) => listQueue(db, params.id, query),
});

export const evalGetItem = defineOperation({
  id: "evalGetItem",
  trpc: "eval.items.get",
  kind: "query",
  permission: "eval.read",
  params: RunItemParams,
  output: EvalItemDetailOut,
  run: ({ db, params }) => getItem(db, params.id, params.itemId),
});

export const evalReviewProgress = defineOperation({
  id: "evalReviewProgress",
  trpc: "eval.items.progress",
  kind: "query",
  permission: "eval.read",
  params: RunParams,
  output: EvalReviewProgressOut,
  run: ({ db, params }) => reviewProgress(db, params.id),
});

export const evalQueueNeighbours = defineOperation({
  id: "evalQueueNeighbours",
  trpc: "eval.items.neighbours",
  kind: "query",
  permission: "eval.read",
  params: RunItemParams,
  query: QueueFilterQuery,
  output: EvalQueueNeighboursOut,
  run: ({ db, params, query }) => queueNeighbours(db, params.id, params.itemId, query),
});
