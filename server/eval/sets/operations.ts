/**
 * Sets, their versions and samples as operations (server/auth/operation.ts): declared once, served by REST
 * (server/http/endpoints/eval) and tRPC (`eval.sets.*`, `eval.versions.*`, `eval.samples.*`).
 */
import { defineOperation } from "../../auth/operation";
import { pageOf } from "../../core/params";
import { EVAL_LIMITS } from "../limits";
import {
  SCRIPT_RULES,
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
  updateSetJudged,
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
  EvalSetUpdateOut,
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
  description: [
    "kind: golden (track A, release gate) or regression_pool (track B, never passes the gate). gateThreshold: human-confirmed passes the gate needs (e.g. 24 of 28, 26 of 30).",
    "A set is bound to one agent. Its versions are numbered; a draft can be edited, a frozen version never changes (see freeze).",
  ].join(" "),
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
  description: [
    "Changing gateThreshold, reviewsPerItem or minReviewerKappa affects only runs created afterwards: a run keeps the values its set had when it was created, so a gate decision is reproducible.",
    'The judge likewise: `judge` is {"type":"builtin"} (the built-in point-coverage judge), {"type":"llm"} (the LLM judge with its fixed rubric, on the runtime\'s model provider) or {"type":"agent","agentId","version"}: an agent of kind judge at a pinned version ("latest" or no version: 400 REQUEST_INVALID).',
    "An agent that is not a judge is 400 JUDGE_NOT_A_JUDGE; an unknown agent or version 404 JUDGE_VERSION_NOT_FOUND; a judge whose workflow fails validation (with the judge contract) 400 WORKFLOW_INVALID with the findings.",
    "null goes back to the server's default judge. A run takes the set's judge when it is created and keeps it; every suggestion records its judge.",
    "A switch is compared first on the set's human-typed verdicts (see calibration): when both judges have at least 20 items there and the candidate's kappa is more than 0.05 below the current judge's or its fail recall more than 0.05 lower, 409 JUDGE_AGREEMENT_DROP with both judges' figures in details[0], unless `force: true` with a `reason` (force without a reason: 400 REQUEST_INVALID). Every change of the judge is recorded in the set's `judgeHistory` (before, after, the figures, forced, the reason, who).",
    "When the candidate has no suggestions on those items yet: the built-in judge judges them at once and the switch is decided in this request; an LLM or agent judge answers 202 `{ job }`, the comparison job (GET /api/eval/jobs/{id}: progress, then the decision, with this request's force and reason; the other fields of the request are written at once). Sending the same candidate again while its job runs answers that job; another judge request decided on the set ends it (superseded). Re-judging a run with the candidate first (POST /api/eval/runs/{id}/suggest) lets the PATCH decide at once.",
  ].join(" "),
  params: SetParams,
  body: UpdateSetInput,
  output: EvalSetUpdateOut,
  run: ({ db, params, body, principal }) => updateSetJudged(db, params.id, body, principal),
});

export const evalDeleteSet = defineOperation({
  id: "evalDeleteSet",
  trpc: "eval.sets.delete",
  kind: "mutation",
  permission: "eval.manage",
  description: "Refused with 409 SET_HAS_RUNS while any run references the set.",
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
  description: [
    "Copies the samples and set-level assertions of `from` (default: the latest version) unless `empty` is true. Send `{}` for the defaults.",
    "To change the questions of a frozen version, create the next version and edit it; the new version is a draft, numbered after the latest.",
  ].join(" "),
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
  description:
    "Set-level assertions apply to every sample of the version, before the sample's own. Only drafts (409 SET_VERSION_FROZEN).",
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
  description:
    "Only drafts: a frozen version is kept for good (409 SET_VERSION_FROZEN), since runs and gate decisions rest on it.",
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
  description: [
    "Needs at least one sample and expected points on every sample (409 SET_VERSION_INCOMPLETE with the sample keys otherwise).",
    "Freezing makes the version and its samples immutable: the service answers 409 SET_VERSION_FROZEN to any change and the database's triggers refuse one. Freezing again changes nothing. A regression pool's samples need no confirmation to be frozen: a sample frozen unconfirmed is in the pool from then on.",
  ].join(" "),
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
  description: [
    `question, expectedPoints (short points, not a full answer), classification, optional script (turns { role, content, preset }), assertions, sourceTraceId (unique within the version). Limits: ${EVAL_LIMITS.maxSamplesPerVersion} samples per version, question ${EVAL_LIMITS.maxQuestionChars} characters, ${EVAL_LIMITS.maxPointsPerSample} points of ${EVAL_LIMITS.maxPointChars} characters.`,
    `\`key\` is stable across versions (generated q001, q002… when absent; unique in the version). ${SCRIPT_RULES} sourceTraceId is unique within a version (409 on a duplicate). Text PostgreSQL cannot store (NUL, lone surrogates) is refused. Only drafts (409 SET_VERSION_FROZEN).`,
  ].join(" "),
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
    [
      "Body: `{ format: json|jsonl|csv, content: <file text>, mode: append|replace }`.",
      "json: an array of samples (or { samples: [...] }); jsonl: one sample per line; csv: header row with columns key, question, expected_points (`|`-separated or a JSON array), classification, script (JSON), assertions (JSON), source_trace_id. camelCase names are accepted too.",
      "Any problem answers 400 IMPORT_INVALID and imports nothing; each detail is `{ row, field, message }` (json: position in the array, jsonl: line, csv: spreadsheet row, the header being row 1).",
      `Limits: file ${EVAL_LIMITS.maxImportBytes} bytes and ${EVAL_LIMITS.maxSamplesPerVersion} samples per version (413 EVAL_LIMIT_EXCEEDED).`,
    ].join(" "),
    "CSV is RFC 4180 (quotes, doubled quotes, newlines inside quotes, a UTF-8 BOM, CRLF); unknown columns are errors. Field names are snake_case, camelCase accepted; nested fields are named like script[0].role. Duplicates of key or source_trace_id within the file, or (append) against the draft, are row errors, as is text PostgreSQL cannot store that appears only once a row is decoded (a \\u0000 or lone-surrogate escape) and nesting deeper than 100 levels. mode: append (default) or replace (the draft's samples are replaced in the same transaction). The export of a version imports back unchanged.",
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
  description:
    "The file is in the import's format (json, jsonl or csv with the same columns), so it imports back unchanged.",
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
  description:
    "The same fields and limits as adding a sample; only drafts (409 SET_VERSION_FROZEN: create the next version and edit it there).",
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
  description: "Only drafts (409 SET_VERSION_FROZEN).",
  params: SampleParams,
  output: DeletedOut,
  run: async ({ db, params }) => {
    await deleteSample(db, params.id);
    return { deleted: true as const };
  },
});
