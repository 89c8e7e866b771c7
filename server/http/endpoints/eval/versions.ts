import { z } from "zod";
import { defineEndpoint } from "../../endpoint";
import { ErrorOut } from "../../../core/errors";
import {
  addSample,
  createVersion,
  CreateVersionInput,
  deleteVersion,
  EVAL_LIMITS,
  exportVersion,
  freezeVersion,
  getVersion,
  ExportQuery,
  ImportInput,
  importSamples,
  listSamples,
  ListSamplesQuery,
  SampleInput,
  SetParams,
  SetVersionParams,
  updateVersion,
  UpdateVersionInput,
} from "../../../eval";
import { EvalSampleOut, EvalVersionOut } from "../../../eval/sets/schemas";
import { base, notFound, conflict, invalid, uploadLimit } from "./shared";

/** A set's versions and the samples of a version (import, export) over REST (/api/eval/*); handlers only call server/eval. */

export const evalCreateVersion = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/sets/{id}/versions",
  operationId: "evalCreateVersion",
  summary: "Create the next version as a draft copy (to change the questions of a frozen version)",
  description:
    "Copies the samples and set-level assertions of `from` (default: the latest version) unless `empty` is true. Send `{}` for the defaults.",
  permission: "eval.manage",
  params: SetParams,
  body: CreateVersionInput,
  responses: { 201: { description: "The new draft", schema: EvalVersionOut }, ...invalid(), ...notFound },
  handler: async ({ db, params, body, principal }) => ({
    status: 201,
    body: await createVersion(db, params.id, body, principal),
  }),
});

export const evalGetVersion = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/sets/{id}/versions/{version}",
  operationId: "evalGetVersion",
  summary: "One version",
  permission: "eval.read",
  params: SetVersionParams,
  responses: { 200: { description: "The version", schema: EvalVersionOut }, ...notFound },
  handler: async ({ db, params }) => ({ status: 200, body: await getVersion(db, params.id, params.version) }),
});

export const evalUpdateVersion = defineEndpoint({
  ...base,
  method: "PATCH",
  path: "/api/eval/sets/{id}/versions/{version}",
  operationId: "evalUpdateVersion",
  summary: "Edit a draft's note or set-level rule assertions (409 SET_VERSION_FROZEN on a frozen version)",
  permission: "eval.manage",
  params: SetVersionParams,
  body: UpdateVersionInput,
  responses: {
    200: { description: "The version", schema: EvalVersionOut },
    ...invalid(),
    ...notFound,
    ...conflict("SET_VERSION_FROZEN"),
  },
  handler: async ({ db, params, body }) => ({
    status: 200,
    body: await updateVersion(db, params.id, params.version, body),
  }),
});

export const evalDeleteVersion = defineEndpoint({
  ...base,
  method: "DELETE",
  path: "/api/eval/sets/{id}/versions/{version}",
  operationId: "evalDeleteVersion",
  summary: "Delete a draft version (frozen versions are kept)",
  permission: "eval.manage",
  params: SetVersionParams,
  responses: { 204: { description: "Deleted" }, ...notFound, ...conflict("SET_VERSION_FROZEN") },
  handler: async ({ db, params }) => {
    await deleteVersion(db, params.id, params.version);
    return new Response(null, { status: 204 });
  },
});

export const evalFreezeVersion = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/sets/{id}/versions/{version}/freeze",
  operationId: "evalFreezeVersion",
  summary: "Freeze a version: immutable from now on (service and database); idempotent",
  description:
    "Needs at least one sample and expected points on every sample (409 SET_VERSION_INCOMPLETE with the sample keys otherwise).",
  permission: "eval.manage",
  params: SetVersionParams,
  responses: {
    200: { description: "The frozen version", schema: EvalVersionOut },
    ...notFound,
    ...conflict("SET_VERSION_INCOMPLETE: no samples, or samples without expected points"),
  },
  handler: async ({ db, params, principal }) => ({
    status: 200,
    body: await freezeVersion(db, params.id, params.version, principal),
  }),
});

export const evalListSamples = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/sets/{id}/versions/{version}/samples",
  operationId: "evalListSamples",
  summary: "A version's samples in order (search and pages optional)",
  permission: "eval.read",
  params: SetVersionParams,
  query: ListSamplesQuery,
  responses: {
    200: {
      description: "The version and its samples; `matching` counts the samples that match `q`",
      schema: z.object({
        version: EvalVersionOut,
        items: z.array(EvalSampleOut),
        matching: z.number().int(),
        nextCursor: z.string().nullable(),
      }),
    },
    ...notFound,
  },
  handler: async ({ db, params, query }) => ({
    status: 200,
    body: await listSamples(db, params.id, params.version, query),
  }),
});

export const evalAddSample = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/sets/{id}/versions/{version}/samples",
  operationId: "evalAddSample",
  summary: "Add a sample to a draft",
  description: `question, expectedPoints (short points, not a full answer), classification, optional script (turns { role, content, preset }), assertions, sourceTraceId (unique within the version). Limits: ${EVAL_LIMITS.maxSamplesPerVersion} samples per version, question ${EVAL_LIMITS.maxQuestionChars} characters, ${EVAL_LIMITS.maxPointsPerSample} points of ${EVAL_LIMITS.maxPointChars} characters.`,
  permission: "eval.manage",
  params: SetVersionParams,
  body: SampleInput,
  responses: {
    201: { description: "The sample", schema: EvalSampleOut },
    ...invalid(),
    ...notFound,
    ...conflict("SET_VERSION_FROZEN, or a duplicate key / sourceTraceId"),
    413: { description: "EVAL_LIMIT_EXCEEDED", schema: ErrorOut },
  },
  handler: async ({ db, params, body }) => ({
    status: 201,
    body: await addSample(db, params.id, params.version, body),
  }),
});

export const evalImportSamples = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/sets/{id}/versions/{version}/import",
  operationId: "evalImportSamples",
  summary: "Import samples (JSON, JSONL or CSV) into a draft: all rows or none",
  description: [
    "Body: `{ format: json|jsonl|csv, content: <file text>, mode: append|replace }`.",
    "json: an array of samples (or { samples: [...] }); jsonl: one sample per line; csv: header row with columns key, question, expected_points (`|`-separated or a JSON array), classification, script (JSON), assertions (JSON), source_trace_id. camelCase names are accepted too.",
    "Any problem answers 400 IMPORT_INVALID and imports nothing; each detail is `{ row, field, message }` (json: position in the array, jsonl: line, csv: spreadsheet row, the header being row 1).",
    `Limits: file ${EVAL_LIMITS.maxImportBytes} bytes and ${EVAL_LIMITS.maxSamplesPerVersion} samples per version (413 EVAL_LIMIT_EXCEEDED).`,
  ].join(" "),
  permission: "eval.manage",
  params: SetVersionParams,
  body: ImportInput,
  maxBodyBytes: uploadLimit,
  responses: {
    200: {
      description: "Imported",
      schema: z.object({ imported: z.number().int(), mode: z.enum(["append", "replace"]), version: EvalVersionOut }),
    },
    400: { description: "IMPORT_INVALID: row errors, each an EvalRowError { row, field, message }", schema: ErrorOut },
    ...notFound,
    ...conflict("SET_VERSION_FROZEN"),
    413: { description: "EVAL_LIMIT_EXCEEDED or PAYLOAD_TOO_LARGE", schema: ErrorOut },
  },
  handler: async ({ db, params, body }) => ({
    status: 200,
    body: await importSamples(db, params.id, params.version, body),
  }),
});

export const evalExportSamples = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/sets/{id}/versions/{version}/export",
  operationId: "evalExportSamples",
  summary: "Export a version's samples as JSON, JSONL or CSV (imports back unchanged)",
  permission: "eval.read",
  params: SetVersionParams,
  query: ExportQuery,
  responses: { 200: { description: "The file (attachment)" }, ...notFound },
  handler: async ({ db, params, query }) => {
    const file = await exportVersion(db, params.id, params.version, query.format);
    return new Response(file.body, {
      status: 200,
      headers: {
        "content-type": file.contentType,
        "content-disposition": `attachment; filename="${file.filename}"`,
        "cache-control": "no-store",
      },
    });
  },
});
