/**
 * Sets, their versions and samples as operations (server/auth/operation.ts): declared once, served by REST
 * (server/http/endpoints/eval) and tRPC (`eval.sets.*`, `eval.versions.*`, `eval.samples.*`).
 */
import { defineOperation } from "../../auth/operation";
import { pageOf } from "../../core/params";
import { EVAL_LIMITS } from "../limits";
import {
  addSample,
  createSet,
  createVersion,
  deleteSample,
  deleteSet,
  deleteVersion,
  exportVersion,
  freezeVersion,
  getSample,
  getSet,
  getVersion,
  importSamples,
  listSamples,
  listSets,
  updateSample,
  updateSet,
  updateVersion,
} from "..";
import {
  CreateSetInput,
  CreateVersionInput,
  DeletedOut,
  EvalExportOut,
  EvalImportOut,
  EvalSampleListOut,
  EvalSampleOut,
  EvalSetDetailOut,
  EvalSetOut,
  EvalVersionOut,
  ExportQuery,
  ImportInput,
  ListSamplesQuery,
  ListSetsQuery,
  SampleInput,
  SampleParams,
  SamplePatch,
  SetParams,
  SetVersionParams,
  UpdateSetInput,
  UpdateVersionInput,
} from "./schemas";

export const evalCreateSet = defineOperation({
  id: "evalCreateSet",
  trpc: "eval.sets.create",
  kind: "mutation",
  permission: "eval.manage",
  description:
    "kind: golden (track A, release gate) or regression_pool (track B, never passes the gate). gateThreshold: human-confirmed passes the gate needs (e.g. 24 of 28, 26 of 30).",
  body: CreateSetInput,
  output: EvalSetDetailOut,
  run: ({ db, body, principal }) => createSet(db, body, principal),
});

export const evalListSets = defineOperation({
  id: "evalListSets",
  trpc: "eval.sets.list",
  kind: "query",
  permission: "eval.read",
  query: ListSetsQuery,
  output: pageOf(EvalSetOut),
  run: ({ db, query }) => listSets(db, query),
});

export const evalGetSet = defineOperation({
  id: "evalGetSet",
  trpc: "eval.sets.get",
  kind: "query",
  permission: "eval.read",
  params: SetParams,
  output: EvalSetDetailOut,
  run: ({ db, params }) => getSet(db, params.id),
});

export const evalUpdateSet = defineOperation({
  id: "evalUpdateSet",
  trpc: "eval.sets.update",
  kind: "mutation",
  permission: "eval.manage",
  params: SetParams,
  body: UpdateSetInput,
  output: EvalSetOut,
  run: ({ db, params, body }) => updateSet(db, params.id, body),
});

export const evalDeleteSet = defineOperation({
  id: "evalDeleteSet",
  trpc: "eval.sets.delete",
  kind: "mutation",
  permission: "eval.manage",
  params: SetParams,
  output: DeletedOut,
  run: async ({ db, params }) => {
    await deleteSet(db, params.id);
    return { deleted: true as const };
  },
});

export const evalCreateVersion = defineOperation({
  id: "evalCreateVersion",
  trpc: "eval.versions.create",
  kind: "mutation",
  permission: "eval.manage",
  description:
    "Copies the samples and set-level assertions of `from` (default: the latest version) unless `empty` is true. Send `{}` for the defaults.",
  params: SetParams,
  body: CreateVersionInput,
  output: EvalVersionOut,
  run: ({ db, params, body, principal }) => createVersion(db, params.id, body, principal),
});

export const evalGetVersion = defineOperation({
  id: "evalGetVersion",
  trpc: "eval.versions.get",
  kind: "query",
  permission: "eval.read",
  params: SetVersionParams,
  output: EvalVersionOut,
  run: ({ db, params }) => getVersion(db, params.id, params.version),
});

export const evalUpdateVersion = defineOperation({
  id: "evalUpdateVersion",
  trpc: "eval.versions.update",
  kind: "mutation",
  permission: "eval.manage",
  params: SetVersionParams,
  body: UpdateVersionInput,
  output: EvalVersionOut,
  run: ({ db, params, body }) => updateVersion(db, params.id, params.version, body),
});

export const evalDeleteVersion = defineOperation({
  id: "evalDeleteVersion",
  trpc: "eval.versions.delete",
  kind: "mutation",
  permission: "eval.manage",
  params: SetVersionParams,
  output: DeletedOut,
  run: async ({ db, params }) => {
    await deleteVersion(db, params.id, params.version);
    return { deleted: true as const };
  },
});

export const evalFreezeVersion = defineOperation({
  id: "evalFreezeVersion",
  trpc: "eval.versions.freeze",
  kind: "mutation",
  permission: "eval.manage",
  description:
    "Needs at least one sample and expected points on every sample (409 SET_VERSION_INCOMPLETE with the sample keys otherwise).",
  params: SetVersionParams,
  output: EvalVersionOut,
  run: ({ db, params, principal }) => freezeVersion(db, params.id, params.version, principal),
});

export const evalListSamples = defineOperation({
  id: "evalListSamples",
  trpc: "eval.samples.list",
  kind: "query",
  permission: "eval.read",
  params: SetVersionParams,
  query: ListSamplesQuery,
  output: EvalSampleListOut,
  run: ({ db, params, query }) => listSamples(db, params.id, params.version, query),
});

export const evalAddSample = defineOperation({
  id: "evalAddSample",
  trpc: "eval.samples.add",
  kind: "mutation",
  permission: "eval.manage",
  description: `question, expectedPoints (short points, not a full answer), classification, optional script (turns { role, content, preset }), assertions, sourceTraceId (unique within the version). Limits: ${EVAL_LIMITS.maxSamplesPerVersion} samples per version, question ${EVAL_LIMITS.maxQuestionChars} characters, ${EVAL_LIMITS.maxPointsPerSample} points of ${EVAL_LIMITS.maxPointChars} characters.`,
  params: SetVersionParams,
  body: SampleInput,
  output: EvalSampleOut,
  run: ({ db, params, body }) => addSample(db, params.id, params.version, body),
});

export const evalImportSamples = defineOperation({
  id: "evalImportSamples",
  trpc: "eval.versions.import",
  kind: "mutation",
  permission: "eval.manage",
  description: [
    "Body: `{ format: json|jsonl|csv, content: <file text>, mode: append|replace }`.",
    "json: an array of samples (or { samples: [...] }); jsonl: one sample per line; csv: header row with columns key, question, expected_points (`|`-separated or a JSON array), classification, script (JSON), assertions (JSON), source_trace_id. camelCase names are accepted too.",
    "Any problem answers 400 IMPORT_INVALID and imports nothing; each detail is `{ row, field, message }` (json: position in the array, jsonl: line, csv: spreadsheet row, the header being row 1).",
    `Limits: file ${EVAL_LIMITS.maxImportBytes} bytes and ${EVAL_LIMITS.maxSamplesPerVersion} samples per version (413 EVAL_LIMIT_EXCEEDED).`,
  ].join(" "),
  params: SetVersionParams,
  body: ImportInput,
  output: EvalImportOut,
  run: ({ db, params, body }) => importSamples(db, params.id, params.version, body),
});

export const evalExportSamples = defineOperation({
  id: "evalExportSamples",
  trpc: "eval.versions.export",
  kind: "query",
  permission: "eval.read",
  params: SetVersionParams,
  query: ExportQuery,
  output: EvalExportOut,
  run: ({ db, params, query }) => exportVersion(db, params.id, params.version, query.format),
});

export const evalGetSample = defineOperation({
  id: "evalGetSample",
  trpc: "eval.samples.get",
  kind: "query",
  permission: "eval.read",
  params: SampleParams,
  output: EvalSampleOut,
  run: ({ db, params }) => getSample(db, params.id),
});

export const evalUpdateSample = defineOperation({
  id: "evalUpdateSample",
  trpc: "eval.samples.update",
  kind: "mutation",
  permission: "eval.manage",
  params: SampleParams,
  body: SamplePatch,
  output: EvalSampleOut,
  run: ({ db, params, body }) => updateSample(db, params.id, body),
});

export const evalDeleteSample = defineOperation({
  id: "evalDeleteSample",
  trpc: "eval.samples.delete",
  kind: "mutation",
  permission: "eval.manage",
  params: SampleParams,
  output: DeletedOut,
  run: async ({ db, params }) => {
    await deleteSample(db, params.id);
    return { deleted: true as const };
  },
});
