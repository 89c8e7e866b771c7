import { rest } from "../../rest";
import { ErrorOut } from "../../../core/errors";
import * as op from "../../../eval/operations";
import { EvalJobAcceptedOut, EvalSetOut } from "../../../eval";
import { base, noContent, notFound, conflict, invalid } from "./shared";

/** Evaluation sets over REST (/api/eval/*); handlers only call server/eval. */

export const evalCreateSet = rest(op.evalCreateSet, {
  ...base,
  method: "POST",
  path: "/api/eval/sets",
  summary: "Create an evaluation set (bound to one agent) with an empty draft version 1",
  responses: { 201: "Created", ...invalid(), ...notFound },
});

export const evalListSets = rest(op.evalListSets, {
  ...base,
  method: "GET",
  path: "/api/eval/sets",
  summary: "List evaluation sets (newest first)",
  responses: { 200: "A page of sets" },
});

export const evalGetSet = rest(op.evalGetSet, {
  ...base,
  method: "GET",
  path: "/api/eval/sets/{id}",
  summary: "One set with its versions",
  responses: { 200: "The set", ...notFound },
});

export const evalUpdateSet = rest(op.evalUpdateSet, {
  ...base,
  method: "PATCH",
  path: "/api/eval/sets/{id}",
  summary: "Rename a set, change its gate threshold or choose its judge",
  status: (answer) => ("job" in answer ? 202 : 200),
  responses: {
    200: { description: "The set", schema: EvalSetOut },
    202: {
      description:
        "The judge switch waits for the comparison job (the candidate had no suggestions on the set's human-typed items): GET /api/eval/jobs/{id}",
      schema: EvalJobAcceptedOut,
    },
    ...invalid(
      "REQUEST_INVALID (e.g. an agent judge without a pinned version), JUDGE_NOT_A_JUDGE, WORKFLOW_INVALID (the judge's workflow fails validation; findings in details)",
    ),
    404: { description: "NOT_FOUND (the set) or JUDGE_VERSION_NOT_FOUND", schema: ErrorOut },
    ...conflict("JUDGE_AGREEMENT_DROP (the candidate judge agrees less with people; its figures in details[0])"),
  },
});

export const evalDeleteSet = rest(op.evalDeleteSet, {
  ...base,
  method: "DELETE",
  path: "/api/eval/sets/{id}",
  summary: "Delete a set with its versions and samples (refused while runs reference it)",
  responses: { 204: { description: "Deleted" }, ...notFound, ...conflict("SET_HAS_RUNS") },
  respond: noContent,
});
