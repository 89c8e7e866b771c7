/** Request and response schemas of the runtime faces (REST, tRPC, OpenAPI). */
import { z } from "zod";
import { CursorParam, IdParam } from "../core/params";
import { EXECUTION_MODES, EXECUTION_SOURCES, TRACE_STATUSES } from "./types";
import { workflowField } from "../workflow";

/** A trace: `{ id }`. */
export const TraceParams = IdParam;

export const ChatTurnSchema = z.object({
  role: z.enum(["user", "assistant", "system"]),
  content: z.string().max(100_000),
});

const SessionId = z.string().trim().min(1).max(128).meta({
  description:
    "Conversation id chosen by the client. Earlier turns of this session (by the same caller) are given to llm nodes as history.",
});

export const ChatInput = z
  .object({
    message: z.string().max(100_000).optional().meta({
      description:
        "The user's message; mapped onto the start output named query|message|question|input|text (else the first string output).",
    }),
    input: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "Values for the start node's declared outputs; override what `message` maps to." }),
    sessionId: SessionId.optional(),
  })
  .refine((v) => v.message !== undefined || v.input !== undefined, {
    message: "Send `message` or `input`",
    path: ["message"],
  })
  .meta({ id: "ChatRequest", anyOf: [{ required: ["message"] }, { required: ["input"] }] });

export const TestRunInput = z
  .object({
    workflow: workflowField(
      "A draft workflow {nodes, edges}; validated first (400 with findings). When omitted, the agent's latest version runs.",
    ).optional(),
    input: z
      .record(z.string(), z.unknown())
      .default({})
      .meta({ description: "Values for the start node's declared outputs." }),
    message: z
      .string()
      .max(100_000)
      .optional()
      .meta({ description: "Mapped onto the start's message output like chat (input wins)." }),
    mode: z.enum(EXECUTION_MODES).default("pipeline").meta({
      description: "pipeline_live: real HTTP; pipeline (default): http nodes dry-run; invoke: http nodes skipped.",
    }),
    sessionId: SessionId.optional(),
    history: z
      .array(ChatTurnSchema)
      .max(100)
      .optional()
      .meta({ description: "Earlier turns given to llm nodes as prior messages." }),
  })
  .meta({ id: "TestRunRequest" });

export const TracesQuery = z.object({
  agentId: z.string().max(64).optional(),
  source: z.enum(EXECUTION_SOURCES).optional(),
  status: z.enum(TRACE_STATUSES).optional(),
  sessionId: z.string().max(128).optional(),
  minScore: z.coerce
    .number()
    .int()
    .min(1)
    .max(5)
    .optional()
    .meta({ description: "Only traces with a feedback score >= this" }),
  maxScore: z.coerce
    .number()
    .int()
    .min(1)
    .max(5)
    .optional()
    .meta({ description: "Only traces with a feedback score <= this" }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: CursorParam,
});

export const FeedbackInput = z.object({
  score: z.int().min(1).max(5).meta({ description: "1 (bad) .. 5 (good)" }),
  comment: z.string().max(4000).optional(),
});

// ------------------------------------------------------------------------------------------------ responses

const Usage = z.object({ promptTokens: z.int(), completionTokens: z.int() });
/** A failed run's error: a stable run error code, a message and the node it failed at. */
export const RunError = z
  .object({ code: z.string(), message: z.string(), nodeId: z.string().optional() })
  .meta({ id: "RunError" });

export const TraceStepOut = z
  .object({
    nodeId: z.string(),
    type: z.string(),
    status: z.enum(["succeeded", "failed", "skipped"]),
    input: z.unknown(),
    output: z.unknown(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    startedAt: z.iso.datetime(),
    durationMs: z.number(),
    usage: Usage.optional(),
    provider: z.string().optional(),
  })
  .meta({ id: "TraceStep" });

export const FeedbackOut = z
  .object({
    id: z.string(),
    traceId: z.string(),
    score: z.int(),
    comment: z.string(),
    createdById: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "TraceFeedback" });

export const TraceOut = z
  .object({
    id: z.string(),
    agentId: z.string().nullable(),
    workflowVersionId: z.string().nullable(),
    source: z.enum(EXECUTION_SOURCES),
    mode: z.enum(EXECUTION_MODES),
    status: z
      .enum(TRACE_STATUSES)
      .meta({ description: "interrupted: the server stopped before the run finished (see error INTERRUPTED)" }),
    sessionId: z.string().nullable(),
    input: z.unknown(),
    answer: z.string().nullable(),
    payload: z.record(z.string(), z.unknown()).nullable(),
    error: RunError.nullable(),
    cache: z.enum(["hit", "miss", "bypass"]),
    cacheSourceTraceId: z
      .string()
      .nullable()
      .meta({ description: "For a cache hit: the trace whose answer was reused" }),
    llmProvider: z.string().nullable(),
    usage: Usage,
    durationMs: z.int().nullable(),
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
    createdById: z.string().nullable(),
    otelTraceId: z.string().nullable().meta({
      description:
        "The OpenTelemetry trace this run was a span of (32 hex digits; its span `agent.run` carries `flowbench.trace_id`), when the server exported traces (OTEL_EXPORTER_OTLP_ENDPOINT) and sampled this one",
    }),
    feedbackSummary: z.object({ count: z.int(), averageScore: z.number().nullable(), lastScore: z.int().nullable() }),
  })
  .meta({ id: "Trace" });

export const TraceDetailOut = TraceOut.extend({ steps: z.array(TraceStepOut), feedback: z.array(FeedbackOut) }).meta({
  id: "TraceDetail",
});

export const TraceListOut = z.object({ items: z.array(TraceOut), nextCursor: z.string().nullable() });

export const ChatOut = z
  .object({
    answer: z.string(),
    payload: z.record(z.string(), z.unknown()).nullable(),
    traceId: z.string(),
    cache: z.enum(["hit", "miss", "bypass"]).meta({
      description:
        "hit: answered from the cache; miss: ran and cached; bypass: ran, cache not used (session with history, memory nodes, TTL 0, no question text)",
    }),
    sessionId: z.string().nullable(),
  })
  .meta({ id: "ChatResponse" });

export const RunFailedOut = z
  .object({
    traceId: z.string(),
    error: z.object({
      code: z.enum(["INPUT_REQUIRED", "INPUT_INVALID_TYPE", "RUN_TIMEOUT", "RUN_FAILED"]),
      message: z.string(),
      details: z.array(RunError),
    }),
  })
  .meta({
    id: "RunFailed",
    description:
      "The run failed: `error.code` is INPUT_REQUIRED/INPUT_INVALID_TYPE (400), RUN_TIMEOUT (504) or RUN_FAILED (502, details carry the node error); `traceId` names the recorded trace.",
  });

export type ChatInputT = z.input<typeof ChatInput>;
export type TestRunInputT = z.input<typeof TestRunInput>;
