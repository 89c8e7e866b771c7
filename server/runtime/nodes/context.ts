import type { Db } from "../../db/client";
import type { LlmProvider } from "../../llm/types";
import type { HttpPolicy } from "../http/client";
import type { RedactPolicy } from "../redact";
import type { Branch, PlanNode } from "../plan";
import type { ChatTurn, ExecutionMode } from "../types";

/** What the Python sandbox offers the code node (server/runtime/sandbox). */
export type SandboxRunner = {
  run(req: { code: string; inputs: Record<string, unknown>; timeoutMs: number; signal?: AbortSignal }): Promise<{
    result: unknown;
    stdout: string;
    stderr: string;
    durationMs: number;
  }>;
};

/** Everything a run reaches outside the process; replaced in tests and benchmarks. */
export type RuntimeDeps = {
  llm: LlmProvider;
  http: { policy: HttpPolicy; webhookBaseUrl?: string };
  sandbox: () => Promise<SandboxRunner>;
  /** What is redacted from stored http steps (server/runtime/redact.ts); on by default. */
  redact?: RedactPolicy;
};

/** Outputs of the nodes that ran, by node id (a null-prototype object). */
export type Scope = Record<string, Record<string, unknown>>;

export type NodeContext<C = Record<string, unknown>> = {
  db: Db;
  node: PlanNode;
  config: C;
  scope: Scope;
  signal: AbortSignal;
  mode: ExecutionMode;
  agentId?: string;
  /** The memory scope: "" production (online sources), anything else an isolated scope (see ExecuteOptions). */
  memoryScope: string;
  history: readonly ChatTurn[];
  /** The execution's idempotency scope (ExecuteOptions.idempotencyScope), if any. */
  idempotencyScope?: string;
  deps: RuntimeDeps;
  /** Records the rendered inputs early, so a failed step still shows what it was about to do. */
  noteInput(input: unknown): void;
};

export type NodeOutcome = {
  status: "succeeded" | "skipped";
  /** The rendered inputs, recorded in the trace. */
  input: unknown;
  output: Record<string, unknown>;
  /** For condition nodes: the branch taken. */
  branch?: Branch;
  usage?: { promptTokens: number; completionTokens: number };
  provider?: string;
};
