import { defineEndpoint } from "../../endpoint";
import {
  createSet,
  CreateSetInput,
  deleteSet,
  getSet,
  listSets,
  ListSetsQuery,
  SetParams,
  updateSet,
  UpdateSetInput,
} from "../../../eval";
import { EvalSetDetailOut, EvalSetOut } from "../../../eval/sets/schemas";
import { base, notFound, conflict, invalid, page } from "./shared";

/** Evaluation sets over REST (/api/eval/*); handlers only call server/eval. */

export const evalCreateSet = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/sets",
  operationId: "evalCreateSet",
  summary: "Create an evaluation set (bound to one agent) with an empty draft version 1",
  description:
    "kind: golden (track A, release gate) or regression_pool (track B, never passes the gate). gateThreshold: human-confirmed passes the gate needs (e.g. 24 of 28, 26 of 30).",
  permission: "eval.manage",
  body: CreateSetInput,
  responses: { 201: { description: "Created", schema: EvalSetDetailOut }, ...invalid(), ...notFound },
  handler: async ({ db, body, principal }) => ({ status: 201, body: await createSet(db, body, principal) }),
});

export const evalListSets = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/sets",
  operationId: "evalListSets",
  summary: "List evaluation sets (newest first)",
  permission: "eval.read",
  query: ListSetsQuery,
  responses: { 200: { description: "A page of sets", schema: page(EvalSetOut) } },
  handler: async ({ db, query }) => ({ status: 200, body: await listSets(db, query) }),
});

export const evalGetSet = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/sets/{id}",
  operationId: "evalGetSet",
  summary: "One set with its versions",
  permission: "eval.read",
  params: SetParams,
  responses: { 200: { description: "The set", schema: EvalSetDetailOut }, ...notFound },
  handler: async ({ db, params }) => ({ status: 200, body: await getSet(db, params.id) }),
});

export const evalUpdateSet = defineEndpoint({
  ...base,
  method: "PATCH",
  path: "/api/eval/sets/{id}",
  operationId: "evalUpdateSet",
  summary: "Rename a set or change its gate threshold",
  permission: "eval.manage",
  params: SetParams,
  body: UpdateSetInput,
  responses: { 200: { description: "The set", schema: EvalSetOut }, ...invalid(), ...notFound },
  handler: async ({ db, params, body }) => ({ status: 200, body: await updateSet(db, params.id, body) }),
});

export const evalDeleteSet = defineEndpoint({
  ...base,
  method: "DELETE",
  path: "/api/eval/sets/{id}",
  operationId: "evalDeleteSet",
  summary: "Delete a set with its versions and samples (refused while runs reference it)",
  permission: "eval.manage",
  params: SetParams,
  responses: { 204: { description: "Deleted" }, ...notFound, ...conflict("SET_HAS_RUNS") },
  handler: async ({ db, params }) => {
    await deleteSet(db, params.id);
    return new Response(null, { status: 204 });
  },
});
