import { rest } from "../../rest";
import * as op from "../../../eval/operations";
import { ErrorOut } from "../../../core/errors";
import { base, noContent, notFound, conflict, invalid, uploadLimit } from "./shared";

/** A set's versions and the samples of a version (import, export) over REST (/api/eval/*); handlers only call server/eval. */

export const evalCreateVersion = rest(op.evalCreateVersion, {
  ...base,
  method: "POST",
  path: "/api/eval/sets/{id}/versions",
  summary: "Create the next version as a draft copy (to change the questions of a frozen version)",
  responses: { 201: "The new draft", ...invalid(), ...notFound },
});

export const evalGetVersion = rest(op.evalGetVersion, {
  ...base,
  method: "GET",
  path: "/api/eval/sets/{id}/versions/{version}",
  summary: "One version",
  responses: { 200: "The version", ...notFound },
});

export const evalUpdateVersion = rest(op.evalUpdateVersion, {
  ...base,
  method: "PATCH",
  path: "/api/eval/sets/{id}/versions/{version}",
  summary: "Edit a draft's note or set-level rule assertions (409 SET_VERSION_FROZEN on a frozen version)",
  responses: {
    200: "The version",
    ...invalid(),
    ...notFound,
    ...conflict("SET_VERSION_FROZEN"),
  },
});

export const evalDeleteVersion = rest(op.evalDeleteVersion, {
  ...base,
  method: "DELETE",
  path: "/api/eval/sets/{id}/versions/{version}",
  summary: "Delete a draft version (frozen versions are kept)",
  responses: { 204: { description: "Deleted" }, ...notFound, ...conflict("SET_VERSION_FROZEN") },
  respond: noContent,
});

export const evalFreezeVersion = rest(op.evalFreezeVersion, {
  ...base,
  method: "POST",
  path: "/api/eval/sets/{id}/versions/{version}/freeze",
  summary: "Freeze a version: immutable from now on (service and database); idempotent",
  responses: {
    200: "The frozen version",
    ...notFound,
    ...conflict("SET_VERSION_INCOMPLETE: no samples, or samples without expected points"),
  },
});

export const evalListSamples = rest(op.evalListSamples, {
  ...base,
  method: "GET",
  path: "/api/eval/sets/{id}/versions/{version}/samples",
  summary: "A version's samples in order (search and pages optional)",
  responses: {
    200: "The version and its samples; `matching` counts the samples that match `q`",
    ...notFound,
  },
});

export const evalAddSample = rest(op.evalAddSample, {
  ...base,
  method: "POST",
  path: "/api/eval/sets/{id}/versions/{version}/samples",
  summary: "Add a sample to a draft",
  responses: {
    201: "The sample",
    ...invalid(),
    ...notFound,
    ...conflict("SET_VERSION_FROZEN, or a duplicate key / sourceTraceId"),
    413: { description: "EVAL_LIMIT_EXCEEDED", schema: ErrorOut },
  },
});

export const evalImportSamples = rest(op.evalImportSamples, {
  ...base,
  method: "POST",
  path: "/api/eval/sets/{id}/versions/{version}/import",
  summary: "Import samples (JSON, JSONL or CSV) into a draft: all rows or none",
  maxBodyBytes: uploadLimit,
  responses: {
    200: "Imported",
    400: { description: "IMPORT_INVALID: row errors, each an EvalRowError { row, field, message }", schema: ErrorOut },
    ...notFound,
    ...conflict("SET_VERSION_FROZEN"),
    413: { description: "EVAL_LIMIT_EXCEEDED or PAYLOAD_TOO_LARGE", schema: ErrorOut },
  },
});

export const evalExportSamples = rest(op.evalExportSamples, {
  ...base,
  method: "GET",
  path: "/api/eval/sets/{id}/versions/{version}/export",
  summary: "Export a version's samples as JSON, JSONL or CSV (imports back unchanged)",
  responses: { 200: { description: "The file (attachment)" }, ...notFound },
  respond: (file) =>
    new Response(file.body, {
      status: 200,
      headers: {
        "content-type": file.contentType,
        "content-disposition": `attachment; filename="${file.filename}"`,
        "cache-control": "no-store",
      },
    }),
});
