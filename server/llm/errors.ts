/** A failed model call with a stable code (see server/runtime/errors.ts for the table). */
export type LlmErrorCode =
  | "LLM_RATE_LIMITED"
  | "LLM_TIMEOUT"
  | "LLM_UNAVAILABLE"
  | "LLM_AUTH_FAILED"
  | "LLM_REQUEST_REJECTED"
  | "LLM_BAD_RESPONSE";

export class LlmError extends Error {
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "LlmError";
  }
}
