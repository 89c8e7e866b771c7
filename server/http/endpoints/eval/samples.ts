import { defineEndpoint } from "../../endpoint";
import { deleteSample, getSample, SampleParams, SamplePatch, updateSample } from "../../../eval";
import { EvalSampleOut } from "../../../eval/sets/schemas";
import { base, notFound, conflict, invalid } from "./shared";

/** One sample over REST (/api/eval/*); handlers only call server/eval. */

export const evalGetSample = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/samples/{id}",
  operationId: "evalGetSample",
  summary: "One sample",
  permission: "eval.read",
  params: SampleParams,
  responses: { 200: { description: "The sample", schema: EvalSampleOut }, ...notFound },
  handler: async ({ db, params }) => ({ status: 200, body: await getSample(db, params.id) }),
});

export const evalUpdateSample = defineEndpoint({
  ...base,
  method: "PATCH",
  path: "/api/eval/samples/{id}",
  operationId: "evalUpdateSample",
  summary: "Edit a sample of a draft (409 SET_VERSION_FROZEN on a frozen version: create a new version)",
  permission: "eval.manage",
  params: SampleParams,
  body: SamplePatch,
  responses: {
    200: { description: "The sample", schema: EvalSampleOut },
    ...invalid(),
    ...notFound,
    ...conflict("SET_VERSION_FROZEN or a duplicate key"),
  },
  handler: async ({ db, params, body }) => ({ status: 200, body: await updateSample(db, params.id, body) }),
});

export const evalDeleteSample = defineEndpoint({
  ...base,
  method: "DELETE",
  path: "/api/eval/samples/{id}",
  operationId: "evalDeleteSample",
  summary: "Remove a sample from a draft",
  permission: "eval.manage",
  params: SampleParams,
  responses: { 204: { description: "Deleted" }, ...notFound, ...conflict("SET_VERSION_FROZEN") },
  handler: async ({ db, params }) => {
    await deleteSample(db, params.id);
    return new Response(null, { status: 204 });
  },
});
