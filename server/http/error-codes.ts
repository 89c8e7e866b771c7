import { EVAL_ERROR_CODES } from "../eval/codes";

/** Stable codes used outside validation findings; the docs render this table. */
export const ERROR_CODES: Record<string, { status: number; description: string }> = {
  UNAUTHORIZED: { status: 401, description: "No credentials, or a token/session that is unknown, revoked or expired." },
  FORBIDDEN: { status: 403, description: "The caller's role may not perform this operation." },
  NOT_FOUND: { status: 404, description: "The resource or path does not exist." },
  METHOD_NOT_ALLOWED: { status: 405, description: "The path exists but not with this HTTP method." },
  INVALID_JSON: { status: 400, description: "The request body is not valid JSON." },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: "The request body must be sent as application/json." },
  REQUEST_INVALID: { status: 400, description: "The body, query or path parameters do not match the documented schema; details list each problem with its path." },
  WORKFLOW_INVALID: { status: 400, description: "The workflow has validation errors; details (and `errors`) list the findings." },
  PAYLOAD_TOO_LARGE: { status: 413, description: "The body exceeds the documented size limit." },
  CONFLICT: { status: 409, description: "The request conflicts with the current state (e.g. a duplicate e-mail)." },
  AGENT_NOT_PUBLISHED: { status: 409, description: "Online chat needs a published version: POST /api/builder/agents/{id}/publish." },
  INPUT_REQUIRED: { status: 400, description: "A run lacks a required start input; the body names it and the recorded trace (traceId)." },
  INPUT_INVALID_TYPE: { status: 400, description: "A start input is not of its declared type; the body names it and the recorded trace (traceId)." },
  RUN_FAILED: { status: 502, description: "A node failed during the run; details carry the node's error code (e.g. LLM_UNAVAILABLE, HTTP_FORBIDDEN_DESTINATION) and nodeId, traceId names the trace." },
  RUN_TIMEOUT: { status: 504, description: "The run exceeded its time limit; traceId names the trace." },
  TRACE_NOT_ONLINE: { status: 409, description: "Feedback is recorded only on online (chat/api) traces." },
  ...EVAL_ERROR_CODES,
  INTERNAL: { status: 500, description: "An unexpected server error; the message carries a reference to the server log, never a stack trace." },
};
