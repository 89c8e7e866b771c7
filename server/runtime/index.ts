/**
 * The workflow runtime: the engine (executeWorkflow), input mapping and the LLM provider choice. Consumed by the
 * chat / test-run / traces faces (server/runtime/service.ts) and the evaluation center.
 */
import type { Db } from "../db/client";
import type { Workflow } from "../workflow";

export type { Workflow };
export type { Db };
export type { ChatTurn, LlmProvider } from "../llm/types";
export { getLlmProvider } from "../llm";
export {
  EXECUTION_MODES,
  EXECUTION_SOURCES,
  RUN_LIMITS,
  ONLINE_SOURCES,
  type ExecuteOptions,
  type ExecuteResult,
  type ExecutionMode,
  type ExecutionSource,
  type RunStatus,
  type StepStatus,
  type TraceStep,
} from "./types";
export { clearMemoryScope, executeWorkflow, memoryScopeFor } from "./executor";
export { inputFromMessage, messageField } from "./input";
export { RUNTIME_ERROR_CODES, RuntimeError, type RuntimeErrorCode } from "./errors";
export { DRY_RUN_HTTP_OUTPUT, SKIPPED_HTTP_OUTPUT } from "./nodes/http";
export {
  onOnlineAnswer,
  notifyOnlineAnswer,
  onOnlineFeedback,
  notifyOnlineFeedback,
  type OnlineAnswer,
  type OnlineFeedback,
} from "./hooks";
export { cacheSource } from "./traces";
export { workflowOf } from "./versions";
