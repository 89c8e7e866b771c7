import { rest } from "../../rest";
import * as op from "../../../eval/operations";
import { ErrorOut } from "../../../core/errors";
import { base, notFound, conflict, invalid, uploadLimit } from "./shared";

/** Runs and their lifecycle, pasted answers, re-judging over REST (/api/eval/*); handlers only call server/eval. */

export const evalCreateRun = rest(op.evalCreateRun, {
  ...base,
  method: "POST",
  path: "/api/eval/runs",
  summary: "Create a run from a frozen set version",
  responses: {
    201: "The run (status created)",
    ...invalid("SET_VERSION_NOT_FROZEN or an invalid body"),
    ...notFound,
  },
});

export const evalListRuns = rest(op.evalListRuns, {
  ...base,
  method: "GET",
  path: "/api/eval/runs",
  summary: "List runs (newest first) with progress",
  responses: {
    200: "A page of runs",
    404: { description: "NOT_FOUND: the run named by rerunOf does not exist", schema: ErrorOut },
  },
});

export const evalGetRun = rest(op.evalGetRun, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}",
  summary: "One run with its progress (answered/total at any time)",
  responses: { 200: "The run", ...notFound },
});

export const evalStartRun = rest(op.evalStartRun, {
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/start",
  summary: "Start a run (idempotent)",
  responses: { 200: "The run", ...notFound, ...conflict("RUN_STATE_CONFLICT") },
});

export const evalCancelRun = rest(op.evalCancelRun, {
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/cancel",
  summary: "Cancel a created or answering run: in-flight executions are aborted, finished answers kept",
  responses: { 200: "The run", ...notFound, ...conflict("RUN_STATE_CONFLICT") },
});

export const evalCloseAnswering = rest(op.evalCloseAnswering, {
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/close",
  summary:
    "Pasted mode: close answering; questions without an answer become failed (NOT_ANSWERED) and the run awaits review",
  responses: {
    200: "The questions left without an answer, and the run (awaiting_review)",
    ...notFound,
    ...conflict("RUN_MODE_MISMATCH (an in-platform run) or RUN_STATE_CONFLICT"),
  },
});

export const evalRerun = rest(op.evalRerun, {
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/rerun",
  summary: "Re-run the same batch: a new run on the same frozen version, mode and tier",
  responses: { 201: "The new run", ...invalid(), ...notFound },
});

export const evalPasteAnswers = rest(op.evalPasteAnswers, {
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/answers",
  summary: "Pasted mode: upload answers matched by sample id (or key)",
  maxBodyBytes: uploadLimit,
  responses: {
    200: "What was matched",
    ...invalid("IMPORT_INVALID"),
    ...notFound,
    ...conflict("RUN_MODE_MISMATCH (an in-platform run) or RUN_STATE_CONFLICT"),
    413: { description: "EVAL_LIMIT_EXCEEDED", schema: ErrorOut },
  },
});

export const evalResuggest = rest(op.evalResuggest, {
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/suggest",
  summary: "Recompute machine suggestions of every answered item, with the run's judge or another (re-judging)",
  responses: {
    200: "Judged now or queued",
    ...invalid(
      "REQUEST_INVALID (a judge without a pinned version), JUDGE_NOT_A_JUDGE, WORKFLOW_INVALID (with findings)",
    ),
    404: { description: "NOT_FOUND (the run) or JUDGE_VERSION_NOT_FOUND", schema: ErrorOut },
  },
});

export const evalGetAssignees = rest(op.evalGetAssignees, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/assignees",
  summary: "The run's assignment and the people who may be assigned (enabled users who may review)",
  responses: { 200: "The assignment and the candidates", ...notFound },
});

export const evalPutAssignees = rest(op.evalPutAssignees, {
  ...base,
  method: "PUT",
  path: "/api/eval/runs/{id}/assignees",
  summary: "Assign the run's items to people: split evenly and at random (seeded, stored)",
  responses: { 200: "The split: each person's item count and the seed", ...invalid(), ...notFound },
});
