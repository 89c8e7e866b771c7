import { z } from "zod";
import { defineEndpoint } from "../../endpoint";
import {
  BadCaseParams,
  createBadCase,
  CreateBadCaseInput,
  createBadCasesForRun,
  getBadCase,
  listBadCases,
  ListBadCasesQuery,
  RunItemParams,
  RunParams,
  updateBadCase,
  UpdateBadCaseInput,
} from "../../../eval";
import { BadCaseDetailOut, BadCaseOut } from "../../../eval/verdicts/schemas";
import { base, notFound, conflict, invalid, page } from "./shared";

/** Bad Cases over REST (/api/eval/*); handlers only call server/eval. */

export const evalCreateBadCase = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/items/{itemId}/bad-case",
  operationId: "evalCreateBadCase",
  summary: "Turn a failed item into a Bad Case (idempotent: 200 with the existing one)",
  description:
    "Only items whose verdict is fail (409 BAD_CASE_REQUIRES_FAIL). Body `{ title?, notes? }` (send `{}` for defaults).",
  permission: "eval.annotate",
  params: RunItemParams,
  body: CreateBadCaseInput,
  responses: {
    201: { description: "Created", schema: z.object({ created: z.boolean(), badCase: BadCaseOut }) },
    200: { description: "Already existed", schema: z.object({ created: z.boolean(), badCase: BadCaseOut }) },
    ...notFound,
    ...conflict("BAD_CASE_REQUIRES_FAIL"),
  },
  handler: async ({ db, params, body, principal }) => {
    const r = await createBadCase(db, params.id, params.itemId, body, principal);
    return { status: r.created ? 201 : 200, body: r };
  },
});

export const evalCreateRunBadCases = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/bad-cases",
  operationId: "evalCreateRunBadCases",
  summary: "Every failed item of the run without a Bad Case gets one",
  permission: "eval.annotate",
  params: RunParams,
  responses: {
    200: { description: "Created", schema: z.object({ created: z.number().int(), items: z.array(BadCaseOut) }) },
    ...notFound,
  },
  handler: async ({ db, params, principal }) => ({
    status: 200,
    body: await createBadCasesForRun(db, params.id, principal),
  }),
});

export const evalListBadCases = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/bad-cases",
  operationId: "evalListBadCases",
  summary: "List Bad Cases (filters: status, runId or short Run ID, agentId)",
  permission: "eval.read",
  query: ListBadCasesQuery,
  responses: { 200: { description: "A page of Bad Cases", schema: page(BadCaseOut) } },
  handler: async ({ db, query }) => ({ status: 200, body: await listBadCases(db, query) }),
});

export const evalGetBadCase = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/bad-cases/{id}",
  operationId: "evalGetBadCase",
  summary: "One Bad Case",
  description:
    "With its history, the question's expected points, `verifiableBy` (the newest later run of the set with a pass for the question, typed or adopted, and who gave it: what setting the status to verified rests on; null while there is none) and `latestRun` (the newest later run holding the question, e.g. the re-run, with its verdict or its answering state).",
  permission: "eval.read",
  params: BadCaseParams,
  responses: {
    200: { description: "The Bad Case with its history and the evidence for verifying it", schema: BadCaseDetailOut },
    ...notFound,
  },
  handler: async ({ db, params }) => ({ status: 200, body: await getBadCase(db, params.id) }),
});

export const evalUpdateBadCase = defineEndpoint({
  ...base,
  method: "PATCH",
  path: "/api/eval/bad-cases/{id}",
  operationId: "evalUpdateBadCase",
  summary: "Change a Bad Case's status (open, fixing, fixed, wont_fix), title or notes",
  permission: "eval.annotate",
  params: BadCaseParams,
  body: UpdateBadCaseInput,
  responses: {
    200: { description: "The Bad Case", schema: BadCaseOut },
    ...invalid(),
    ...notFound,
    ...conflict("BAD_CASE_NOT_VERIFIED: status verified needs a later run of the set with a pass for the question"),
  },
  handler: async ({ db, params, body, principal }) => ({
    status: 200,
    body: await updateBadCase(db, params.id, body, principal),
  }),
});
