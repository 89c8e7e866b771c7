import { rest } from "../../rest";
import * as op from "../../../eval/operations";
import { ErrorOut } from "../../../core/errors";
import { base, notFound, conflict, invalid } from "./shared";

/** Bad Cases over REST (/api/eval/*); handlers only call server/eval. */

export const evalCreateBadCase = rest(op.evalCreateBadCase, {
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/items/{itemId}/bad-case",
  summary: "Turn a failed item into a Bad Case (idempotent: 200 with the existing one)",
  responses: {
    201: "Created",
    200: "Already existed",
    ...notFound,
    ...conflict("BAD_CASE_REQUIRES_FAIL"),
  },
  status: (r) => (r.created ? 201 : 200),
});

export const evalCreateRunBadCases = rest(op.evalCreateRunBadCases, {
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/bad-cases",
  summary: "Every failed item of the run without a Bad Case gets one",
  responses: {
    200: "Created",
    ...notFound,
  },
});

export const evalListBadCases = rest(op.evalListBadCases, {
  ...base,
  method: "GET",
  path: "/api/eval/bad-cases",
  summary: "List Bad Cases (filters: status, runId or short Run ID, agentId)",
  responses: { 200: "A page of Bad Cases" },
});

export const evalGetBadCase = rest(op.evalGetBadCase, {
  ...base,
  method: "GET",
  path: "/api/eval/bad-cases/{id}",
  summary: "One Bad Case",
  responses: {
    200: "The Bad Case with its history and the evidence for verifying it",
    ...notFound,
  },
});

export const evalUpdateBadCase = rest(op.evalUpdateBadCase, {
  ...base,
  method: "PATCH",
  path: "/api/eval/bad-cases/{id}",
  summary: "Change a Bad Case's status (open, fixing, fixed, wont_fix, verified), title or notes",
  responses: {
    200: "The Bad Case",
    ...invalid("Invalid request (e.g. a `reason` without status verified)"),
    403: {
      description: "The caller's role lacks eval.annotate, or sent a `reason` without eval.manage",
      schema: ErrorOut,
    },
    ...notFound,
    ...conflict(
      "BAD_CASE_NOT_VERIFIED: status verified needs a later platform run of a newer agent version with a human pass for the question, or a manager's reason",
    ),
  },
});
