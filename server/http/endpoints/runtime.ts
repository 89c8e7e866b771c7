import { rest } from "../rest";
import * as op from "../../runtime/operations";
import { ErrorOut } from "../../core/errors";
import { ValidationErrorOut } from "../../agents/schemas";
import { WORKFLOW_LIMITS } from "../../workflow";
import { RunFailedOut } from "../../runtime/schemas";

/**
 * The runtime's REST face. Chat and traces accept a session or a token (the web UI and API clients);
 * publishing a version is a builder operation (endpoints/builder.ts).
 */
const online = { auth: "token-or-session", tag: "Runtime" } as const;

export const agentChat = rest(op.agentChat, {
  ...online,
  method: "POST",
  path: "/api/agents/{id}/chat",
  summary: "Chat with an agent's published version",
  description:
    "Runs the PUBLISHED version at tier pipeline_live (real HTTP). Body `{ message?, input?, sessionId? }`. With a `sessionId`, the caller's earlier turns of that session are the history. Repeated questions are answered from the cache (CHAT_CACHE_TTL_SECONDS) unless the session has history or the workflow has memory nodes; every answer, hit or not, writes a trace. Permission builder.read (every role).",
  responses: {
    200: "The answer",
    400: {
      description: "Bad request, or a required input missing (INPUT_REQUIRED / INPUT_INVALID_TYPE, with traceId)",
      schema: RunFailedOut,
    },
    404: { description: "No such agent", schema: ErrorOut },
    409: { description: "AGENT_NOT_PUBLISHED", schema: ErrorOut },
    502: { description: "RUN_FAILED: a node failed (details name it; traceId names the trace)", schema: RunFailedOut },
    504: { description: "RUN_TIMEOUT", schema: RunFailedOut },
  },
});

export const agentTestRun = rest(op.agentTestRun, {
  ...online,
  method: "POST",
  path: "/api/agents/{id}/test-run",
  summary: "Run a draft workflow or the latest version and return the trace",
  description:
    "Body `{ workflow?, input, message?, mode? (default pipeline), sessionId?, history? }`. A draft is validated first (with the Python syntax check): 400 with the findings. The trace is returned with its steps whatever the run's outcome. Permission builder.write.",
  maxBodyBytes: WORKFLOW_LIMITS.maxBodyBytes,
  responses: {
    200: "The trace with steps (status succeeded, failed or cancelled)",
    400: { description: "Invalid draft workflow or request", schema: ValidationErrorOut },
    404: { description: "No such agent (or it has no version)", schema: ErrorOut },
    413: { description: "Body larger than the limit", schema: ErrorOut },
  },
});

export const tracesList = rest(op.tracesList, {
  ...online,
  method: "GET",
  path: "/api/traces",
  summary: "List traces, newest first (filters: agentId, source, status, sessionId, minScore/maxScore)",
  responses: { 200: "A page of traces (without steps)" },
});

export const tracesGet = rest(op.tracesGet, {
  ...online,
  method: "GET",
  path: "/api/traces/{id}",
  summary: "One trace with its steps and feedback",
  responses: {
    200: "The trace",
    404: { description: "Not found", schema: ErrorOut },
  },
});

export const tracesFeedback = rest(op.tracesFeedback, {
  ...online,
  method: "POST",
  path: "/api/traces/{id}/feedback",
  summary: "Score an online answer 1..5",
  description:
    "Records `{ score: 1..5, comment? }` on a chat (or api) trace; each call adds a score. Evaluation and test-run traces answer 409 TRACE_NOT_ONLINE.",
  responses: {
    201: "Recorded",
    400: { description: "Bad request", schema: ErrorOut },
    404: { description: "No such trace", schema: ErrorOut },
    409: { description: "TRACE_NOT_ONLINE", schema: ErrorOut },
  },
});
