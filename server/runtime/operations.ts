/**
 * The runtime's operations (server/auth/operation.ts): chat, test runs, traces and feedback, declared once and served
 * by REST (server/http/endpoints/runtime.ts) and tRPC (`runtime.*`). An agent is named by `{ id }` (IdParam, the
 * agents' AgentParams: the runtime sits below server/agents and cannot import it).
 */
import { defineOperation } from "../auth/operation";
import { IdParam } from "../core/params";
import {
  ChatInput,
  ChatOut,
  FeedbackInput,
  FeedbackOut,
  TestRunInput,
  TraceDetailOut,
  TraceListOut,
  TraceParams,
  TracesQuery,
} from "./schemas";
import { chat, testRun } from "./service";
import { addFeedback, getTrace, listTraces } from "./traces";

export const agentChat = defineOperation({
  id: "agentChat",
  trpc: "runtime.chat",
  kind: "mutation",
  permission: "builder.read",
  params: IdParam,
  body: ChatInput,
  output: ChatOut,
  run: ({ db, params, body, principal, signal }) => chat(db, params.id, body, principal, { signal }),
});

export const agentTestRun = defineOperation({
  id: "agentTestRun",
  trpc: "runtime.testRun",
  kind: "mutation",
  permission: "builder.write",
  params: IdParam,
  body: TestRunInput,
  output: TraceDetailOut,
  run: ({ db, params, body, principal, signal }) => testRun(db, params.id, body, principal, { signal }),
});

export const tracesList = defineOperation({
  id: "tracesList",
  trpc: "runtime.traces.list",
  kind: "query",
  permission: "builder.read",
  query: TracesQuery,
  output: TraceListOut,
  run: ({ db, query }) => listTraces(db, query),
});

export const tracesGet = defineOperation({
  id: "tracesGet",
  trpc: "runtime.traces.get",
  kind: "query",
  permission: "builder.read",
  params: TraceParams,
  output: TraceDetailOut,
  run: ({ db, params }) => getTrace(db, params.id),
});

export const tracesFeedback = defineOperation({
  id: "tracesFeedback",
  trpc: "runtime.feedback",
  kind: "mutation",
  permission: "builder.read",
  params: TraceParams,
  body: FeedbackInput,
  output: FeedbackOut,
  run: ({ db, params, body, principal }) => addFeedback(db, params.id, body, principal),
});

export const RUNTIME_OPERATIONS = [agentChat, agentTestRun, tracesList, tracesGet, tracesFeedback];
