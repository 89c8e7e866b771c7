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
  description:
    "Only items whose verdict is fail (409 BAD_CASE_REQUIRES_FAIL). Body `{ title?, notes? }` (send `{}` for defaults).",
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
  description:
    "With its history (each status change with who, when, the verifying run or a manager's reason), the question's expected points, `foundInVersion` (the agent version it was found with), `verifiableBy` (the newest later run of the set answered in the platform by a newer agent version with a pass for the question, typed or adopted, and who gave it: what setting the status to verified rests on; null while there is none) and `latestRun` (the newest later run holding the question, e.g. the re-run, with its verdict or its answering state, its mode and version, and `notEvidence`: why it cannot verify, pasted or not_newer).",
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
  description:
    "Status `verified` needs evidence: a later run of the Bad Case's set answered in the platform (not pasted answers) by an agent version newer than the one it was found with (`foundInVersion`), in which a person passed the question (typed or adopted); the newest such run is kept as `verifiedRunId`. Without one, a manager (eval.manage: admin, builder) may verify with `reason`, kept as `verifiedReason` and in the history with who and when. Otherwise 409 BAD_CASE_NOT_VERIFIED, saying what is missing (details: the question, `foundInVersion`, the newest later pass and why it does not count); a `reason` from a role without eval.manage: 403; a `reason` with another status: 400. Any other status drops `verifiedRunId` and `verifiedReason` (the history keeps them).",
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
