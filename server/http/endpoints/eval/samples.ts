import { rest } from "../../rest";
import * as op from "../../../eval/operations";
import { base, noContent, notFound, conflict, invalid } from "./shared";

/** One sample over REST (/api/eval/*); handlers only call server/eval. */

export const evalGetSample = rest(op.evalGetSample, {
  ...base,
  method: "GET",
  path: "/api/eval/samples/{id}",
  summary: "One sample",
  responses: { 200: "The sample", ...notFound },
});

export const evalUpdateSample = rest(op.evalUpdateSample, {
  ...base,
  method: "PATCH",
  path: "/api/eval/samples/{id}",
  summary: "Edit a sample of a draft (409 SET_VERSION_FROZEN on a frozen version: create a new version)",
  responses: {
    200: "The sample",
    ...invalid(),
    ...notFound,
    ...conflict("SET_VERSION_FROZEN or a duplicate key"),
  },
});

export const evalDeleteSample = rest(op.evalDeleteSample, {
  ...base,
  method: "DELETE",
  path: "/api/eval/samples/{id}",
  summary: "Remove a sample from a draft",
  responses: { 204: { description: "Deleted" }, ...notFound, ...conflict("SET_VERSION_FROZEN") },
  respond: noContent,
});
