import type { Workflow } from "../workflow";
import type { ChatTurn } from "../llm/types";

export type { ChatTurn } from "../llm/types";

/**
 * - `pipeline_live`: real outbound HTTP (online chat, gate runs);
 * - `pipeline`: http nodes make no request and return a dry-run result (see DRY_RUN_HTTP_OUTPUT);
 * - `invoke`: language model and plugins only; http nodes are skipped with empty outputs.
 */
export type ExecutionMode = "pipeline_live" | "pipeline" | "invoke";
export const EXECUTION_MODES = ["pipeline_live", "pipeline", "invoke"] as const satisfies readonly ExecutionMode[];

/** `shadow`: a candidate's intent computed beside online traffic (server/eval/shadow/); never online. */
export type ExecutionSource = "chat" | "eval" | "test_run" | "api" | "shadow";
export const EXECUTION_SOURCES = [
  "chat",
  "eval",
  "test_run",
  "api",
  "shadow",
] as const satisfies readonly ExecutionSource[];
/** Online sources: what users get. Their traces take feedback, and only they use the agent's production memory. */
export const ONLINE_SOURCES: readonly ExecutionSource[] = ["chat", "api"];

export type ExecuteOptions = {
  /** Already validated. */
  workflow: Workflow;
  /** Values for the start node's declared outputs. */
  input: Record<string, unknown>;
  mode: ExecutionMode;
  source: ExecutionSource;
  agentId?: string;
  workflowVersionId?: string;
  sessionId?: string;
  actorId?: string | null;
  /**
   * Whose memory the memory nodes read and write: "" is the agent's production memory, which only online sources
   * (chat, api) use. Any other source runs in an isolated scope that starts empty: this one when given (an eval item
   * keeps one scope for all turns of its script; a canvas test session one per session id), otherwise a scope of
   * its own for this execution, deleted when it ends. See `memoryScopeFor`.
   */
  memoryScope?: string;
  /** Earlier turns (chat sessions, multi-turn eval scripts): given to llm nodes as prior messages. */
  history?: ChatTurn[];
  signal?: AbortSignal;
  /**
   * What makes this execution the same execution when it is made again (an eval item's turn: run, item, turn), so a
   * model call made again after an instance died sends the same idempotency key (`<scope>:<node id>`, see
   * LlmRequest.idempotencyScope). Without it every model call gets a key of its own.
   */
  idempotencyScope?: string;
  limits?: { maxSteps?: number; timeoutMs?: number };
};

export type StepStatus = "succeeded" | "failed" | "skipped";

export type TraceStep = {
  nodeId: string;
  type: string;
  status: StepStatus;
  input: unknown;
  output: unknown;
  error?: { code: string; message: string };
  startedAt: string;
  durationMs: number;
  usage?: { promptTokens: number; completionTokens: number };
  provider?: string;
};

export type RunStatus = "succeeded" | "failed" | "cancelled";

export type ExecuteResult = {
  traceId: string;
  status: RunStatus;
  answer: string | null;
  payload: Record<string, unknown> | null;
  error?: { code: string; message: string; nodeId?: string };
  durationMs: number;
  usage: { promptTokens: number; completionTokens: number; llmCalls: number };
  steps: TraceStep[];
  llmProvider: string;
};

/** A trace's status; `interrupted`: its process ended before the run did (marked at start-up or by the sweep). */
export const TRACE_STATUSES = ["running", "succeeded", "failed", "cancelled", "interrupted"] as const;

export const RUN_LIMITS = {
  maxSteps: 1000,
  timeoutMs: 120_000,
  /** A step's input or output larger than this (as JSON) is stored truncated in the trace. */
  maxTraceValueChars: 64 * 1024,
} as const;
