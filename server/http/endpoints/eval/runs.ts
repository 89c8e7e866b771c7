import { z } from "zod";
import { defineEndpoint } from "../../endpoint";
import { ErrorOut } from "../../../core/errors";
import {
  cancelRun,
  closeAnswering,
  createRun,
  CreateRunInput,
  getRun,
  listRuns,
  ListRunsQuery,
  PastedAnswersInput,
  RerunInput,
  rerunRun,
  resuggestRun,
  RUN_LIFECYCLE,
  RunParams,
  startRun,
  submitPastedAnswers,
} from "../../../eval";
import { EvalRunOut } from "../../../eval/runs/schemas";
import { base, notFound, conflict, invalid, page, uploadLimit } from "./shared";

/** Runs and their lifecycle, pasted answers, re-judging over REST (/api/eval/*); handlers only call server/eval. */

export const evalCreateRun = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs",
  operationId: "evalCreateRun",
  summary: "Create a run from a frozen set version",
  description: `A draft version answers 400 SET_VERSION_NOT_FROZEN. The run snapshots the agent's workflow version (latest, or agentVersion) and gets a short Run ID. mode: in_platform (the platform answers through the runtime at the tier, never the online answer cache) or pasted (answers uploaded). tier: pipeline_live | pipeline | invoke. ${RUN_LIFECYCLE}`,
  permission: "eval.manage",
  body: CreateRunInput,
  responses: {
    201: { description: "The run (status created)", schema: EvalRunOut },
    ...invalid("SET_VERSION_NOT_FROZEN or an invalid body"),
    ...notFound,
  },
  handler: async ({ db, body, principal }) => ({ status: 201, body: await createRun(db, body, principal) }),
});

export const evalListRuns = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/runs",
  operationId: "evalListRuns",
  summary: "List runs (newest first) with progress",
  permission: "eval.read",
  query: ListRunsQuery,
  responses: {
    200: { description: "A page of runs", schema: page(EvalRunOut) },
    404: { description: "NOT_FOUND: the run named by rerunOf does not exist", schema: ErrorOut },
  },
  handler: async ({ db, query }) => ({ status: 200, body: await listRuns(db, query) }),
});

export const evalGetRun = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}",
  operationId: "evalGetRun",
  summary: "One run with its progress (answered/total at any time)",
  permission: "eval.read",
  params: RunParams,
  responses: { 200: { description: "The run", schema: EvalRunOut }, ...notFound },
  handler: async ({ db, params }) => ({ status: 200, body: await getRun(db, params.id) }),
});

export const evalStartRun = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/start",
  operationId: "evalStartRun",
  summary: "Start a run (idempotent)",
  description: `In-platform runs queue every item durably (pg-boss in the database) and answer with the run's concurrency; answering survives restarts. Pasted runs start accepting answers. Starting again changes nothing; a cancelled or failed run answers 409 RUN_STATE_CONFLICT. ${RUN_LIFECYCLE}`,
  permission: "eval.manage",
  params: RunParams,
  responses: { 200: { description: "The run", schema: EvalRunOut }, ...notFound, ...conflict("RUN_STATE_CONFLICT") },
  handler: async ({ db, params }) => ({ status: 200, body: await startRun(db, params.id) }),
});

export const evalCancelRun = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/cancel",
  operationId: "evalCancelRun",
  summary: "Cancel a created or answering run: in-flight executions are aborted, finished answers kept",
  permission: "eval.manage",
  params: RunParams,
  responses: { 200: { description: "The run", schema: EvalRunOut }, ...notFound, ...conflict("RUN_STATE_CONFLICT") },
  handler: async ({ db, params }) => ({ status: 200, body: await cancelRun(db, params.id) }),
});

export const evalCloseAnswering = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/close",
  operationId: "evalCloseAnswering",
  summary:
    "Pasted mode: close answering; questions without an answer become failed (NOT_ANSWERED) and the run awaits review",
  description:
    "Every item still pending becomes `failed` with error `NOT_ANSWERED` (judgeable; the built-in rules suggest fail) and is listed in `unanswered`. The gate still needs a verdict for every question. Only pasted runs (409 RUN_MODE_MISMATCH) that are created or answering (409 RUN_STATE_CONFLICT).",
  permission: "eval.manage",
  params: RunParams,
  responses: {
    200: {
      description: "The questions left without an answer, and the run (awaiting_review)",
      schema: z
        .object({
          unanswered: z.array(z.object({ itemId: z.string(), sampleId: z.string(), key: z.string() })),
          run: EvalRunOut,
        })
        .meta({ id: "EvalCloseAnswering" }),
    },
    ...notFound,
    ...conflict("RUN_MODE_MISMATCH (an in-platform run) or RUN_STATE_CONFLICT"),
  },
  handler: async ({ db, params }) => ({ status: 200, body: await closeAnswering(db, params.id) }),
});

export const evalRerun = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/rerun",
  operationId: "evalRerun",
  summary: "Re-run the same batch: a new run on the same frozen version, mode and tier",
  description: "Snapshots the agent's current workflow version (or agentVersion). Send `{}` for the defaults.",
  permission: "eval.manage",
  params: RunParams,
  body: RerunInput,
  responses: { 201: { description: "The new run", schema: EvalRunOut }, ...invalid(), ...notFound },
  handler: async ({ db, params, body, principal }) => ({
    status: 201,
    body: await rerunRun(db, params.id, body, principal),
  }),
});

export const evalPasteAnswers = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/answers",
  operationId: "evalPasteAnswers",
  summary: "Pasted mode: upload answers matched by sample id (or key)",
  description:
    "Body: `{ answers: [{ sampleId | key, answer, payload?, traceId?, latencyMs?, error? }] }` or `{ format: json|jsonl|csv, content }` with columns sample_id or key, answer, payload, trace_id, latency_ms, error. Invalid rows reject the upload (400 IMPORT_INVALID, row errors). Rows matching no sample come back in `unmatched`; items that already have a verdict are `skipped`. Machine suggestions are computed at once (built-in judge) or queued (LLM judge). When no item is left pending the run awaits review.",
  permission: "eval.manage",
  params: RunParams,
  body: PastedAnswersInput,
  maxBodyBytes: uploadLimit,
  responses: {
    200: {
      description: "What was matched",
      schema: z.object({
        matched: z.number().int(),
        unmatched: z.array(
          z.object({
            row: z.number().int(),
            sampleId: z.string().optional(),
            key: z.string().optional(),
            reason: z.string(),
          }),
        ),
        skipped: z.array(
          z.object({ row: z.number().int(), sampleId: z.string(), key: z.string(), reason: z.string() }),
        ),
        run: EvalRunOut,
      }),
    },
    ...invalid("IMPORT_INVALID"),
    ...notFound,
    ...conflict("RUN_MODE_MISMATCH (an in-platform run) or RUN_STATE_CONFLICT"),
    413: { description: "EVAL_LIMIT_EXCEEDED", schema: ErrorOut },
  },
  handler: async ({ db, params, body }) => ({ status: 200, body: await submitPastedAnswers(db, params.id, body) }),
});

export const evalResuggest = defineEndpoint({
  ...base,
  method: "POST",
  path: "/api/eval/runs/{id}/suggest",
  operationId: "evalResuggest",
  summary: "Recompute machine suggestions of every answered item (e.g. after configuring the LLM judge)",
  permission: "eval.manage",
  params: RunParams,
  responses: {
    200: {
      description: "Judged now or queued",
      schema: z.object({ queued: z.number().int(), judged: z.number().int(), run: EvalRunOut }),
    },
    ...notFound,
  },
  handler: async ({ db, params }) => ({ status: 200, body: await resuggestRun(db, params.id) }),
});
