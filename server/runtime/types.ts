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

export type ExecutionSource = "chat" | "eval" | "test_run" | "api";
export const EXECUTION_SOURCES = ["chat", "eval", "test_run", "api"] as const satisfies readonly ExecutionSource[];

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
  /** Earlier turns (chat sessions, multi-turn eval scripts): given to llm nodes as prior messages. */
  history?: ChatTurn[];
  signal?: AbortSignal;
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

export const RUN_LIMITS = {
  maxSteps: 1000,
  timeoutMs: 120_000,
  /** A step's input or output larger than this (as JSON) is stored truncated in the trace. */
  maxTraceValueChars: 64 * 1024,
} as const;
