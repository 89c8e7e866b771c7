import { rest } from "../../rest";
import * as op from "../../../eval/operations";
import { ErrorOut } from "../../../core/errors";
import { EVAL_LIMITS } from "../../../eval";
import { base, noContent, notFound, conflict, invalid, uploadLimit } from "./shared";

/** A set's versions and the samples of a version (import, export) over REST (/api/eval/*); handlers only call server/eval. */

export const evalCreateVersion = rest(op.evalCreateVersion, {
  ...base,
  method: "POST",
  path: "/api/eval/sets/{id}/versions",
  summary: "Create the next version as a draft copy (to change the questions of a frozen version)",
  description:
    "Copies the samples and set-level assertions of `from` (default: the latest version) unless `empty` is true. Send `{}` for the defaults.",
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
  description:
    "Needs at least one sample and expected points on every sample (409 SET_VERSION_INCOMPLETE with the sample keys otherwise).",
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
  description: `question, expectedPoints (short points, not a full answer), classification, optional script (turns { role, content, preset }), assertions, sourceTraceId (unique within the version). Limits: ${EVAL_LIMITS.maxSamplesPerVersion} samples per version, question ${EVAL_LIMITS.maxQuestionChars} characters, ${EVAL_LIMITS.maxPointsPerSample} points of ${EVAL_LIMITS.maxPointChars} characters.`,
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
  description: [
    "Body: `{ format: json|jsonl|csv, content: <file text>, mode: append|replace }`.",
    "json: an array of samples (or { samples: [...] }); jsonl: one sample per line; csv: header row with columns key, question, expected_points (`|`-separated or a JSON array), classification, script (JSON), assertions (JSON), source_trace_id. camelCase names are accepted too.",
    "Any problem answers 400 IMPORT_INVALID and imports nothing; each detail is `{ row, field, message }` (json: position in the array, jsonl: line, csv: spreadsheet row, the header being row 1).",
    `Limits: file ${EVAL_LIMITS.maxImportBytes} bytes and ${EVAL_LIMITS.maxSamplesPerVersion} samples per version (413 EVAL_LIMIT_EXCEEDED).`,
  ].join(" "),
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
