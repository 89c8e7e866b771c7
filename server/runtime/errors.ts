/**
 * Error codes of a workflow run (`ExecuteResult.error.code`, per-step `error.code`). Stable: a code never
 * changes meaning once released. Sandbox errors keep the sandbox's own code (TIMEOUT, PYTHON_ERROR, ...).
 */
export const RUNTIME_ERROR_CODES = {
  INPUT_REQUIRED:
    "A required start input was not supplied (missing, null, or a blank string with no non-blank default).",
  INPUT_INVALID_TYPE: "A start input is not a value of its declared type.",
  WORKFLOW_INVALID:
    "The workflow cannot be executed: no start node, a cycle, or a malformed graph (validate it first).",
  NODE_CONFIG_INVALID: "A node's config does not match its node type's contract.",
  END_NOT_REACHED: "The run finished without reaching an end node (every branch leading to one was skipped).",
  LIMIT_STEPS: "The run executed more nodes than the step limit allows.",
  RUN_TIMEOUT: "The run took longer than its time limit; in-flight calls were aborted.",
  CANCELLED: "The run was cancelled by its caller (AbortSignal); in-flight calls were aborted.",
  LLM_RATE_LIMITED: "The language model provider kept answering 429 after the retries.",
  LLM_TIMEOUT: "The language model provider did not answer in time (after the retries).",
  LLM_UNAVAILABLE: "The language model provider could not be reached or answered 5xx (after the retries).",
  LLM_AUTH_FAILED: "The language model provider refused the credentials (401/403).",
  LLM_REQUEST_REJECTED:
    "The language model provider rejected the request (4xx other than 401/403/429), e.g. an unknown model.",
  LLM_BAD_RESPONSE: "The language model provider answered without a message.",
  HTTP_URL_INVALID: "The rendered http url is not an absolute http(s) URL or a path starting with /.",
  HTTP_BASE_URL_UNSET: "The http url is relative but WEBHOOK_BASE_URL is not set.",
  HTTP_FORBIDDEN_DESTINATION:
    "The destination is not allowed: its origin is not WEBHOOK_BASE_URL's nor listed in HTTP_ALLOWED_ORIGINS, or it is (or resolves to, or redirects to) a metadata, link-local or - through a wildcard - private/loopback address.",
  HTTP_DNS_FAILED: "The host name of the http url could not be resolved.",
  HTTP_TIMEOUT: "The http request (all redirects and the body included) exceeded the node's timeout.",
  HTTP_RESPONSE_TOO_LARGE: "The http response body is larger than the limit (2 MiB, after decompression).",
  HTTP_TOO_MANY_REDIRECTS: "The http request was redirected more than 5 times.",
  HTTP_REQUEST_FAILED: "The http request failed at the network level (connection refused, reset, TLS error).",
  CONDITION_EVALUATION_FAILED: "The condition expression could not be evaluated or did not give a boolean.",
  MEMORY_AGENT_UNKNOWN: "A memory node's agent_id is not an agent, and the run has no agent to keep the memory under.",
  SANDBOX_UNAVAILABLE: "The Python sandbox could not be started.",
  INTERNAL: "An unexpected error inside the runtime; the message carries the detail.",
} as const;

export type RuntimeErrorCode = keyof typeof RUNTIME_ERROR_CODES;

/** A node or run failure with a stable code. `code` may also be a sandbox error code. */
export class RuntimeError extends Error {
  constructor(
    readonly code: RuntimeErrorCode | (string & {}),
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "RuntimeError";
  }
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
