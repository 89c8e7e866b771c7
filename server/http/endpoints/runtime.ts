import { AgentParams } from "../../agents/service";
import { defineEndpoint } from "../endpoint";
import { ErrorOut } from "../../core/errors";
import { ValidationErrorOut } from "../../agents/schemas";
import { WORKFLOW_LIMITS } from "../../workflow";
import { chat, testRun } from "../../runtime/service";
import { addFeedback, getTrace, listTraces } from "../../runtime/traces";
import {
  ChatInput,
  ChatOut,
  FeedbackInput,
  FeedbackOut,
  RunFailedOut,
  TestRunInput,
  TraceDetailOut,
  TraceListOut,
  TraceParams,
  TracesQuery,
} from "../../runtime/schemas";

/**
 * The runtime's REST face. Chat and traces accept a session or a token (the web UI and API clients);
 * publishing a version is a builder operation (endpoints/builder.ts).
 */
const online = { auth: "token-or-session", tag: "Runtime" } as const;

export const agentChat = defineEndpoint({
  ...online,
  method: "POST",
  path: "/api/agents/{id}/chat",
  operationId: "agentChat",
  summary: "Chat with an agent's published version",
  description:
    "Runs the PUBLISHED version at tier pipeline_live (real HTTP). Body `{ message?, input?, sessionId? }`. With a `sessionId`, the caller's earlier turns of that session are the history. Repeated questions are answered from the cache (CHAT_CACHE_TTL_SECONDS) unless the session has history or the workflow has memory nodes; every answer, hit or not, writes a trace. Permission builder.read (every role).",
  permission: "builder.read",
  params: AgentParams,
  body: ChatInput,
  responses: {
    200: { description: "The answer", schema: ChatOut },
    400: {
      description: "Bad request, or a required input missing (INPUT_REQUIRED / INPUT_INVALID_TYPE, with traceId)",
      schema: RunFailedOut,
    },
    404: { description: "No such agent", schema: ErrorOut },
    409: { description: "AGENT_NOT_PUBLISHED", schema: ErrorOut },
    502: { description: "RUN_FAILED: a node failed (details name it; traceId names the trace)", schema: RunFailedOut },
    504: { description: "RUN_TIMEOUT", schema: RunFailedOut },
  },
  handler: async ({ db, params, body, principal, request }) => ({
    status: 200,
    body: await chat(db, params.id, body, principal, { signal: request.signal }),
  }),
});

export const agentTestRun = defineEndpoint({
  ...online,
  method: "POST",
  path: "/api/agents/{id}/test-run",
  operationId: "agentTestRun",
  summary: "Run a draft workflow or the latest version and return the trace",
  description:
    "Body `{ workflow?, input, message?, mode? (default pipeline), sessionId?, history? }`. A draft is validated first (with the Python syntax check): 400 with the findings. The trace is returned with its steps whatever the run's outcome. Permission builder.write.",
  permission: "builder.write",
  params: AgentParams,
  body: TestRunInput,
  maxBodyBytes: WORKFLOW_LIMITS.maxBodyBytes,
  responses: {
    200: { description: "The trace with steps (status succeeded, failed or cancelled)", schema: TraceDetailOut },
    400: { description: "Invalid draft workflow or request", schema: ValidationErrorOut },
    404: { description: "No such agent (or it has no version)", schema: ErrorOut },
    413: { description: "Body larger than the limit", schema: ErrorOut },
  },
  handler: async ({ db, params, body, principal, request }) => ({
    status: 200,
    body: await testRun(db, params.id, body, principal, { signal: request.signal }),
  }),
});

export const tracesList = defineEndpoint({
  ...online,
  method: "GET",
  path: "/api/traces",
  operationId: "tracesList",
  summary: "List traces, newest first (filters: agentId, source, status, sessionId, minScore/maxScore)",
  permission: "builder.read",
  query: TracesQuery,
  responses: { 200: { description: "A page of traces (without steps)", schema: TraceListOut } },
  handler: async ({ db, query }) => ({ status: 200, body: await listTraces(db, query) }),
});

export const tracesGet = defineEndpoint({
  ...online,
  method: "GET",
  path: "/api/traces/{id}",
  operationId: "tracesGet",
  summary: "One trace with its steps and feedback",
  permission: "builder.read",
  params: TraceParams,
  responses: {
    200: { description: "The trace", schema: TraceDetailOut },
    404: { description: "Not found", schema: ErrorOut },
  },
  handler: async ({ db, params }) => ({ status: 200, body: await getTrace(db, params.id) }),
});

export const tracesFeedback = defineEndpoint({
  ...online,
  method: "POST",
  path: "/api/traces/{id}/feedback",
  operationId: "tracesFeedback",
  summary: "Score an online answer 1..5",
  description:
    "Records `{ score: 1..5, comment? }` on a chat (or api) trace; each call adds a score. Evaluation and test-run traces answer 409 TRACE_NOT_ONLINE.",
  permission: "builder.read",
  params: TraceParams,
  body: FeedbackInput,
  responses: {
    201: { description: "Recorded", schema: FeedbackOut },
    400: { description: "Bad request", schema: ErrorOut },
    404: { description: "No such trace", schema: ErrorOut },
    409: { description: "TRACE_NOT_ONLINE", schema: ErrorOut },
  },
  handler: async ({ db, params, body, principal }) => ({
    status: 201,
    body: await addFeedback(db, params.id, body, principal),
  }),
});
