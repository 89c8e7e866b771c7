import { z } from "zod";
import { IdParam } from "../params";
import { defineEndpoint } from "../endpoint";
import { ErrorOut } from "../../agents/schemas";
import {
  ATTRIBUTIONS,
  AdoptInput,
  CompareQuery,
  CreateBadCaseInput,
  CreateRunInput,
  CreateSetInput,
  CreateVersionInput,
  EVAL_LIMITS,
  GUARDRAIL_FLAGS,
  ITEM_STATUSES,
  ImportFormat,
  ImportInput,
  ListBadCasesQuery,
  ListItemsQuery,
  ListRunsQuery,
  ListSetsQuery,
  PastedAnswersInput,
  RUN_STATUSES,
  RerunInput,
  SampleInput,
  SamplePatch,
  UpdateBadCaseInput,
  UpdateSetInput,
  UpdateVersionInput,
  UsageQuery,
  VerdictInput,
  addSample,
  adoptSuggestions,
  cancelRun,
  compare,
  createBadCase,
  createBadCasesForRun,
  createRun,
  createSet,
  createVersion,
  deleteSample,
  deleteSet,
  deleteVersion,
  exportVersion,
  freezeVersion,
  getBadCase,
  getItem,
  getRun,
  getSample,
  getSet,
  getVersion,
  importSamples,
  listBadCases,
  listItems,
  listRuns,
  listSamples,
  listSets,
  rerunRun,
  resuggestRun,
  runGate,
  runReport,
  setVerdict,
  startRun,
  submitPastedAnswers,
  updateBadCase,
  updateSample,
  updateSet,
  updateVersion,
  usage,
} from "../../eval";
import {
  BadCaseOut,
  CompareOut,
  EvalItemOut,
  EvalRunOut,
  EvalSampleOut,
  EvalSetDetailOut,
  EvalSetOut,
  EvalVersionOut,
  GateOut,
  ReportOut,
  RowErrorOut,
  UsageOut,
  VerdictChangeOut,
} from "../../eval/out-schemas";

/**
 * The evaluation center over REST (/api/eval/*, a session or a bearer token). Handlers only call server/eval.
 * Runs are addressed by internal id or short Run ID (R-7K2F9) wherever `{id}` names a run.
 */
const tag = "Evaluation center";
const base = { tag, auth: "token-or-session" } as const;
const notFound = { 404: { description: "Not found", schema: ErrorOut } };
const conflict = (description: string) => ({ 409: { description, schema: ErrorOut } });
const invalid = (description = "Invalid request") => ({ 400: { description, schema: ErrorOut } });

const SetId = IdParam;
const SetVersion = z.object({ id: z.string().min(1).max(64), version: z.coerce.number().int().min(1) });
const RunId = z.object({ id: z.string().min(1).max(64).meta({ description: "Run id or short Run ID (R-XXXXX)" }) });
const RunItem = RunId.extend({ itemId: z.string().min(1).max(64) });
const Id = IdParam;
const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), nextCursor: z.string().nullable() });
const uploadLimit = EVAL_LIMITS.maxUploadBodyBytes;

const RUN_LIFECYCLE =
  "Run states: created -> (start) answering -> awaiting_review (no item pending) -> completed (every item has a verdict); created|answering -> (cancel) cancelled; answering -> failed when the snapshot cannot run. Item states: pending -> answering -> answered | failed (execution error) | cancelled.";

// ---------------------------------------------------------------- vocabulary

export const evalMeta = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/meta",
  operationId: "evalMeta",
  summary: "The evaluation vocabulary: attributions, guardrail flags, rule types, states, limits",
  permission: "eval.read",
  responses: { 200: { description: "Vocabulary" } },
  handler: async () => ({
    status: 200,
    body: {
      attributions: ATTRIBUTIONS,
      guardrailFlags: GUARDRAIL_FLAGS,
      ruleTypes: ["contains", "icontains", "not-contains", "not-icontains", "regex", "is-json", "json-path-equals", "json-path-nonempty", "max-length", "min-length", "payload-items-nonempty"],
      runStatuses: RUN_STATUSES,
      itemStatuses: ITEM_STATUSES,
      lifecycle: RUN_LIFECYCLE,
      limits: EVAL_LIMITS,
    },
  }),
});

// ---------------------------------------------------------------- sets

export const createSetEndpoint = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/sets",
  operationId: "evalCreateSet",
  summary: "Create an evaluation set (bound to one agent) with an empty draft version 1",
  description: "kind: golden (track A, release gate) or regression_pool (track B, never passes the gate). gateThreshold: human-confirmed passes the gate needs (e.g. 24 of 28, 26 of 30).",
  permission: "eval.manage",
  body: CreateSetInput,
  responses: { 201: { description: "Created", schema: EvalSetDetailOut }, ...invalid(), ...notFound },
  handler: async ({ db, body, principal }) => ({ status: 201, body: await createSet(db, body, principal) }),
});

export const listSetsEndpoint = defineEndpoint({
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

export const getSetEndpoint = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/sets/{id}",
  operationId: "evalGetSet",
  summary: "One set with its versions",
  permission: "eval.read",
  params: SetId,
  responses: { 200: { description: "The set", schema: EvalSetDetailOut }, ...notFound },
  handler: async ({ db, params }) => ({ status: 200, body: await getSet(db, params.id) }),
});

export const updateSetEndpoint = defineEndpoint({
  ...base,
  method: "PATCH",
  path: "/api/eval/sets/{id}",
  operationId: "evalUpdateSet",
  summary: "Rename a set or change its gate threshold",
  permission: "eval.manage",
  params: SetId,
  body: UpdateSetInput,
  responses: { 200: { description: "The set", schema: EvalSetOut }, ...invalid(), ...notFound },
  handler: async ({ db, params, body }) => ({ status: 200, body: await updateSet(db, params.id, body) }),
});

export const deleteSetEndpoint = defineEndpoint({
  ...base,
  method: "DELETE",
  path: "/api/eval/sets/{id}",
  operationId: "evalDeleteSet",
  summary: "Delete a set with its versions and samples (refused while runs reference it)",
  permission: "eval.manage",
  params: SetId,
  responses: { 204: { description: "Deleted" }, ...notFound, ...conflict("SET_HAS_RUNS") },
  handler: async ({ db, params }) => {
    await deleteSet(db, params.id);
    return new Response(null, { status: 204 });
  },
});

// ---------------------------------------------------------------- versions

export const createVersionEndpoint = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/sets/{id}/versions",
  operationId: "evalCreateVersion",
  summary: "Create the next version as a draft copy (to change the questions of a frozen version)",
  description: "Copies the samples and set-level assertions of `from` (default: the latest version) unless `empty` is true. Send `{}` for the defaults.",
  permission: "eval.manage",
  params: SetId,
  body: CreateVersionInput,
  responses: { 201: { description: "The new draft", schema: EvalVersionOut }, ...invalid(), ...notFound },
  handler: async ({ db, params, body, principal }) => ({ status: 201, body: await createVersion(db, params.id, body, principal) }),
});

export const getVersionEndpoint = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/sets/{id}/versions/{version}",
  operationId: "evalGetVersion",
  summary: "One version",
  permission: "eval.read",
  params: SetVersion,
  responses: { 200: { description: "The version", schema: EvalVersionOut }, ...notFound },
  handler: async ({ db, params }) => ({ status: 200, body: await getVersion(db, params.id, params.version) }),
});

export const updateVersionEndpoint = defineEndpoint({
  ...base,
  method: "PATCH",
  path: "/api/eval/sets/{id}/versions/{version}",
  operationId: "evalUpdateVersion",
  summary: "Edit a draft's note or set-level rule assertions (409 SET_VERSION_FROZEN on a frozen version)",
  permission: "eval.manage",
  params: SetVersion,
  body: UpdateVersionInput,
  responses: { 200: { description: "The version", schema: EvalVersionOut }, ...invalid(), ...notFound, ...conflict("SET_VERSION_FROZEN") },
  handler: async ({ db, params, body }) => ({ status: 200, body: await updateVersion(db, params.id, params.version, body) }),
});

export const deleteVersionEndpoint = defineEndpoint({
  ...base,
  method: "DELETE",
  path: "/api/eval/sets/{id}/versions/{version}",
  operationId: "evalDeleteVersion",
  summary: "Delete a draft version (frozen versions are kept)",
  permission: "eval.manage",
  params: SetVersion,
  responses: { 204: { description: "Deleted" }, ...notFound, ...conflict("SET_VERSION_FROZEN") },
  handler: async ({ db, params }) => {
    await deleteVersion(db, params.id, params.version);
    return new Response(null, { status: 204 });
  },
});

export const freezeVersionEndpoint = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/sets/{id}/versions/{version}/freeze",
  operationId: "evalFreezeVersion",
  summary: "Freeze a version: immutable from now on (service and database); idempotent",
  description: "Needs at least one sample and expected points on every sample (400 SET_VERSION_INCOMPLETE with the sample keys otherwise).",
  permission: "eval.manage",
  params: SetVersion,
  responses: { 200: { description: "The frozen version", schema: EvalVersionOut }, ...invalid("SET_VERSION_INCOMPLETE"), ...notFound },
  handler: async ({ db, params, principal }) => ({ status: 200, body: await freezeVersion(db, params.id, params.version, principal) }),
});

// ---------------------------------------------------------------- samples

export const listSamplesEndpoint = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/sets/{id}/versions/{version}/samples",
  operationId: "evalListSamples",
  summary: "A version's samples in order",
  permission: "eval.read",
  params: SetVersion,
  responses: { 200: { description: "The version and its samples", schema: z.object({ version: EvalVersionOut, items: z.array(EvalSampleOut) }) }, ...notFound },
  handler: async ({ db, params }) => ({ status: 200, body: await listSamples(db, params.id, params.version) }),
});

export const addSampleEndpoint = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/sets/{id}/versions/{version}/samples",
  operationId: "evalAddSample",
  summary: "Add a sample to a draft",
  description: `question, expectedPoints (short points, not a full answer), classification, optional script (turns { role, content, preset }), assertions, sourceTraceId (unique within the version). Limits: ${EVAL_LIMITS.maxSamplesPerVersion} samples per version, question ${EVAL_LIMITS.maxQuestionChars} characters, ${EVAL_LIMITS.maxPointsPerSample} points of ${EVAL_LIMITS.maxPointChars} characters.`,
  permission: "eval.manage",
  params: SetVersion,
  body: SampleInput,
  responses: { 201: { description: "The sample", schema: EvalSampleOut }, ...invalid(), ...notFound, ...conflict("SET_VERSION_FROZEN, or a duplicate key / sourceTraceId"), 413: { description: "EVAL_LIMIT_EXCEEDED", schema: ErrorOut } },
  handler: async ({ db, params, body }) => ({ status: 201, body: await addSample(db, params.id, params.version, body) }),
});

export const importSamplesEndpoint = defineEndpoint({
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
  params: SetVersion,
  body: ImportInput,
  maxBodyBytes: uploadLimit,
  responses: {
    200: { description: "Imported", schema: z.object({ imported: z.number().int(), mode: z.enum(["append", "replace"]), version: EvalVersionOut }) },
    400: { description: "IMPORT_INVALID with row errors", schema: ErrorOut.extend({ error: ErrorOut.shape.error.extend({ details: z.array(RowErrorOut) }) }) },
    ...notFound,
    ...conflict("SET_VERSION_FROZEN"),
    413: { description: "EVAL_LIMIT_EXCEEDED or PAYLOAD_TOO_LARGE", schema: ErrorOut },
  },
  handler: async ({ db, params, body }) => ({ status: 200, body: await importSamples(db, params.id, params.version, body) }),
});

export const exportSamplesEndpoint = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/sets/{id}/versions/{version}/export",
  operationId: "evalExportSamples",
  summary: "Export a version's samples as JSON, JSONL or CSV (imports back unchanged)",
  permission: "eval.read",
  params: SetVersion,
  query: z.object({ format: ImportFormat.default("json") }),
  responses: { 200: { description: "The file (attachment)" }, ...notFound },
  handler: async ({ db, params, query }) => {
    const file = await exportVersion(db, params.id, params.version, query.format);
    return new Response(file.body, { status: 200, headers: { "content-type": file.contentType, "content-disposition": `attachment; filename="${file.filename}"`, "cache-control": "no-store" } });
  },
});

export const getSampleEndpoint = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/samples/{id}",
  operationId: "evalGetSample",
  summary: "One sample",
  permission: "eval.read",
  params: Id,
  responses: { 200: { description: "The sample", schema: EvalSampleOut }, ...notFound },
  handler: async ({ db, params }) => ({ status: 200, body: await getSample(db, params.id) }),
});

export const updateSampleEndpoint = defineEndpoint({
  ...base,
  method: "PATCH",
  path: "/api/eval/samples/{id}",
  operationId: "evalUpdateSample",
  summary: "Edit a sample of a draft (409 SET_VERSION_FROZEN on a frozen version: create a new version)",
  permission: "eval.manage",
  params: Id,
  body: SamplePatch,
  responses: { 200: { description: "The sample", schema: EvalSampleOut }, ...invalid(), ...notFound, ...conflict("SET_VERSION_FROZEN or a duplicate key") },
  handler: async ({ db, params, body }) => ({ status: 200, body: await updateSample(db, params.id, body) }),
});

export const deleteSampleEndpoint = defineEndpoint({
  ...base,
  method: "DELETE",
  path: "/api/eval/samples/{id}",
  operationId: "evalDeleteSample",
  summary: "Remove a sample from a draft",
  permission: "eval.manage",
  params: Id,
  responses: { 204: { description: "Deleted" }, ...notFound, ...conflict("SET_VERSION_FROZEN") },
  handler: async ({ db, params }) => {
    await deleteSample(db, params.id);
    return new Response(null, { status: 204 });
  },
});

// ---------------------------------------------------------------- runs

export const createRunEndpoint = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs",
  operationId: "evalCreateRun",
  summary: "Create a run from a frozen set version",
  description: `A draft version answers 400 SET_VERSION_NOT_FROZEN. The run snapshots the agent's workflow version (latest, or agentVersion) and gets a short Run ID. mode: in_platform (the platform answers through the runtime at the tier, never the online answer cache) or pasted (answers uploaded). tier: pipeline_live | pipeline | invoke. ${RUN_LIFECYCLE}`,
  permission: "eval.manage",
  body: CreateRunInput,
  responses: { 201: { description: "The run (status created)", schema: EvalRunOut }, ...invalid("SET_VERSION_NOT_FROZEN or an invalid body"), ...notFound },
  handler: async ({ db, body, principal }) => ({ status: 201, body: await createRun(db, body, principal) }),
});

export const listRunsEndpoint = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/runs",
  operationId: "evalListRuns",
  summary: "List runs (newest first) with progress",
  permission: "eval.read",
  query: ListRunsQuery,
  responses: { 200: { description: "A page of runs", schema: page(EvalRunOut) } },
  handler: async ({ db, query }) => ({ status: 200, body: await listRuns(db, query) }),
});

export const compareRunsEndpoint = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/runs/compare",
  operationId: "evalCompareRuns",
  summary: "Compare two runs question by question",
  description:
    "Questions are matched by sample key. Per question: both_pass, fixed (a fail -> b pass), regressed (a pass -> b fail), both_fail, incomplete (a verdict missing), only_a / only_b; from human verdicts, with the machine outcome beside it. Pass-rate deltas (human and machine, separately); warnings when the runs differ in set, set version, tier, mode, agent or environment.",
  permission: "eval.read",
  query: CompareQuery,
  responses: { 200: { description: "The comparison", schema: CompareOut }, ...invalid(), ...notFound },
  handler: async ({ db, query }) => ({ status: 200, body: await compare(db, query) }),
});

export const getRunEndpoint = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}",
  operationId: "evalGetRun",
  summary: "One run with its progress (answered/total at any time)",
  permission: "eval.read",
  params: RunId,
  responses: { 200: { description: "The run", schema: EvalRunOut }, ...notFound },
  handler: async ({ db, params }) => ({ status: 200, body: await getRun(db, params.id) }),
});

export const startRunEndpoint = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/start",
  operationId: "evalStartRun",
  summary: "Start a run (idempotent)",
  description: `In-platform runs queue every item durably (pg-boss in the database) and answer with the run's concurrency; answering survives restarts. Pasted runs start accepting answers. Starting again changes nothing; a cancelled or failed run answers 409 RUN_STATE_CONFLICT. ${RUN_LIFECYCLE}`,
  permission: "eval.manage",
  params: RunId,
  responses: { 200: { description: "The run", schema: EvalRunOut }, ...notFound, ...conflict("RUN_STATE_CONFLICT") },
  handler: async ({ db, params }) => ({ status: 200, body: await startRun(db, params.id) }),
});

export const cancelRunEndpoint = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/cancel",
  operationId: "evalCancelRun",
  summary: "Cancel a created or answering run: in-flight executions are aborted, finished answers kept",
  permission: "eval.manage",
  params: RunId,
  responses: { 200: { description: "The run", schema: EvalRunOut }, ...notFound, ...conflict("RUN_STATE_CONFLICT") },
  handler: async ({ db, params }) => ({ status: 200, body: await cancelRun(db, params.id) }),
});

export const rerunEndpoint = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/rerun",
  operationId: "evalRerun",
  summary: "Re-run the same batch: a new run on the same frozen version, mode and tier",
  description: "Snapshots the agent's current workflow version (or agentVersion). Send `{}` for the defaults.",
  permission: "eval.manage",
  params: RunId,
  body: RerunInput,
  responses: { 201: { description: "The new run", schema: EvalRunOut }, ...invalid(), ...notFound },
  handler: async ({ db, params, body, principal }) => ({ status: 201, body: await rerunRun(db, params.id, body, principal) }),
});

export const pastedAnswersEndpoint = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/answers",
  operationId: "evalPasteAnswers",
  summary: "Pasted mode: upload answers matched by sample id (or key)",
  description:
    "Body: `{ answers: [{ sampleId | key, answer, payload?, traceId?, latencyMs?, error? }] }` or `{ format: json|jsonl|csv, content }` with columns sample_id or key, answer, payload, trace_id, latency_ms, error. Invalid rows reject the upload (400 IMPORT_INVALID, row errors). Rows matching no sample come back in `unmatched`; items that already have a verdict are `skipped`. Machine suggestions are computed at once (built-in judge) or queued (LLM judge). When no item is left pending the run awaits review.",
  permission: "eval.manage",
  params: RunId,
  body: PastedAnswersInput,
  maxBodyBytes: uploadLimit,
  responses: {
    200: {
      description: "What was matched",
      schema: z.object({
        matched: z.number().int(),
        unmatched: z.array(z.object({ row: z.number().int(), sampleId: z.string().optional(), key: z.string().optional(), reason: z.string() })),
        skipped: z.array(z.object({ row: z.number().int(), sampleId: z.string(), key: z.string(), reason: z.string() })),
        run: EvalRunOut,
      }),
    },
    ...invalid("IMPORT_INVALID or RUN_MODE_MISMATCH"),
    ...notFound,
    ...conflict("RUN_STATE_CONFLICT"),
    413: { description: "EVAL_LIMIT_EXCEEDED", schema: ErrorOut },
  },
  handler: async ({ db, params, body }) => ({ status: 200, body: await submitPastedAnswers(db, params.id, body) }),
});

export const resuggestEndpoint = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/suggest",
  operationId: "evalResuggest",
  summary: "Recompute machine suggestions of every answered item (e.g. after configuring the LLM judge)",
  permission: "eval.manage",
  params: RunId,
  responses: { 200: { description: "Judged now or queued", schema: z.object({ queued: z.number().int(), judged: z.number().int(), run: EvalRunOut }) }, ...notFound },
  handler: async ({ db, params }) => ({ status: 200, body: await resuggestRun(db, params.id) }),
});

export const listItemsEndpoint = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/items",
  operationId: "evalListItems",
  summary: "A run's items: answer, payload, trace, latency, tokens, error, suggestion, verdict",
  description: "Filters: status, verdict (pass|fail|none), suggestion (pass|fail|unknown|none), spotCheck=true (suggestion fail or unknown, or any guardrail flag).",
  permission: "eval.read",
  params: RunId,
  query: ListItemsQuery,
  responses: { 200: { description: "A page of items", schema: z.object({ run: EvalRunOut, items: z.array(EvalItemOut), nextCursor: z.string().nullable() }) }, ...notFound },
  handler: async ({ db, params, query }) => ({ status: 200, body: await listItems(db, params.id, query) }),
});

export const getItemEndpoint = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/items/{itemId}",
  operationId: "evalGetItem",
  summary: "One item with its verdict history (who, when, before, after)",
  permission: "eval.read",
  params: RunItem,
  responses: { 200: { description: "The item", schema: EvalItemOut.extend({ history: z.array(VerdictChangeOut) }) }, ...notFound },
  handler: async ({ db, params }) => ({ status: 200, body: await getItem(db, params.id, params.itemId) }),
});

export const setVerdictEndpoint = defineEndpoint({
  ...base,
  method: "PUT",
  path: "/api/eval/runs/{id}/items/{itemId}/verdict",
  operationId: "evalSetVerdict",
  summary: "Record (or change) the human verdict of an item",
  description:
    "pass or fail. A fail needs `basis` (400 VERDICT_BASIS_REQUIRED) and `attribution` (400 VERDICT_ATTRIBUTION_REQUIRED; see GET /api/eval/meta). `classification` defaults to the sample's. Only answered or failed items (409 ITEM_NOT_JUDGEABLE). Every change is kept. The run completes when every item has a verdict.",
  permission: "eval.annotate",
  params: RunItem,
  body: VerdictInput,
  responses: {
    200: { description: "The item (changed: false when nothing differed)", schema: EvalItemOut.extend({ changed: z.boolean() }) },
    ...invalid("VERDICT_BASIS_REQUIRED or VERDICT_ATTRIBUTION_REQUIRED"),
    ...notFound,
    ...conflict("ITEM_NOT_JUDGEABLE"),
  },
  handler: async ({ db, params, body, principal }) => ({ status: 200, body: await setVerdict(db, params.id, params.itemId, body, principal) }),
});

export const adoptEndpoint = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/adopt",
  operationId: "evalAdoptSuggestions",
  summary: "Bulk adopt: write every pass/fail machine suggestion as a verdict, then list the items to spot-check",
  description:
    "Adopted verdicts are marked source=adopted (never human). Unknown suggestions never become verdicts; items with a verdict are left alone. A fail gets the suggestion's rationale as basis and an attribution derived from its flags. spotCheck: fail, unknown and guardrail-flagged items. Send `{}`.",
  permission: "eval.annotate",
  params: RunId,
  body: AdoptInput,
  responses: {
    200: {
      description: "Adopted",
      schema: z.object({ adopted: z.number().int(), skipped: z.object({ unknown: z.number().int(), noSuggestion: z.number().int(), alreadyJudged: z.number().int() }), spotCheck: z.array(EvalItemOut) }),
    },
    ...notFound,
  },
  handler: async ({ db, params, principal }) => ({ status: 200, body: await adoptSuggestions(db, params.id, principal) }),
});

export const reportEndpoint = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/report",
  operationId: "evalRunReport",
  summary: "Run report: machine and human-confirmed pass rates side by side (never mixed), completeness, breakdowns, agreement, latency, tokens, gate",
  description:
    "Pass rates divide by all items (an unjudged item is not a pass); human.passRateOfJudged divides by judged items. Breakdown by tier, classification (the verdict's, else the sample's), attribution and guardrail flag. Agreement: human-typed verdicts vs pass/fail suggestions (adopted verdicts and unknown suggestions excluded): raw agreement and Cohen's kappa (null without pairs or without variance).",
  permission: "eval.read",
  params: RunId,
  responses: { 200: { description: "The report", schema: ReportOut }, ...notFound },
  handler: async ({ db, params }) => ({ status: 200, body: await runReport(db, params.id) }),
});

export const gateEndpoint = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/gate",
  operationId: "evalRunGate",
  summary: "The golden gate for a run (what check_eval_golden_gate reads)",
  description:
    "Passes only when the run's set is golden (a regression_pool run never passes), the run has finished answering, every question has a verdict (human or adopted; machine suggestions never count) and human-confirmed passes reach the set's threshold. `input` lets a client re-evaluate with the same rule.",
  permission: "eval.read",
  params: RunId,
  responses: { 200: { description: "Gate input and result", schema: GateOut }, ...notFound },
  handler: async ({ db, params }) => ({ status: 200, body: await runGate(db, params.id) }),
});

// ---------------------------------------------------------------- bad cases

export const createBadCaseEndpoint = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/items/{itemId}/bad-case",
  operationId: "evalCreateBadCase",
  summary: "Turn a failed item into a Bad Case (idempotent: 200 with the existing one)",
  description: "Only items whose verdict is fail (409 BAD_CASE_REQUIRES_FAIL). Body `{ title?, notes? }` (send `{}` for defaults).",
  permission: "eval.annotate",
  params: RunItem,
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

export const createRunBadCasesEndpoint = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/bad-cases",
  operationId: "evalCreateRunBadCases",
  summary: "Every failed item of the run without a Bad Case gets one",
  permission: "eval.annotate",
  params: RunId,
  responses: { 200: { description: "Created", schema: z.object({ created: z.number().int(), items: z.array(BadCaseOut) }) }, ...notFound },
  handler: async ({ db, params, principal }) => ({ status: 200, body: await createBadCasesForRun(db, params.id, principal) }),
});

export const listBadCasesEndpoint = defineEndpoint({
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

export const getBadCaseEndpoint = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/bad-cases/{id}",
  operationId: "evalGetBadCase",
  summary: "One Bad Case",
  permission: "eval.read",
  params: Id,
  responses: { 200: { description: "The Bad Case", schema: BadCaseOut }, ...notFound },
  handler: async ({ db, params }) => ({ status: 200, body: await getBadCase(db, params.id) }),
});

export const updateBadCaseEndpoint = defineEndpoint({
  ...base,
  method: "PATCH",
  path: "/api/eval/bad-cases/{id}",
  operationId: "evalUpdateBadCase",
  summary: "Change a Bad Case's status (open, fixing, fixed, wont_fix), title or notes",
  permission: "eval.annotate",
  params: Id,
  body: UpdateBadCaseInput,
  responses: { 200: { description: "The Bad Case", schema: BadCaseOut }, ...invalid(), ...notFound },
  handler: async ({ db, params, body }) => ({ status: 200, body: await updateBadCase(db, params.id, body) }),
});

// ---------------------------------------------------------------- usage

export const usageEndpoint = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/usage",
  operationId: "evalUsage",
  summary: "Usage by UTC day and agent: runs, answered items, model calls and tokens (answering and judging separately)",
  description: "Range: from/to (YYYY-MM-DD, UTC, inclusive; default the last 30 days, at most 366). Runs count by creation day, answered items and answering tokens by answer day, judging by suggestion day.",
  permission: "eval.read",
  query: UsageQuery,
  responses: { 200: { description: "Usage", schema: UsageOut }, ...invalid() },
  handler: async ({ db, query }) => ({ status: 200, body: await usage(db, query) }),
});

