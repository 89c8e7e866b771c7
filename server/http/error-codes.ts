import { z, type ZodType } from "zod";
import { FindingOut } from "../agents/schemas";
import { EVAL_ERROR_CODES } from "../eval/codes";
import { RowErrorOut } from "../eval/sets/schemas";
import { RunError } from "../runtime/schemas";
import { WEBHOOK_ERROR_CODES } from "../webhooks/codes";

/** Stable codes used outside validation findings; the docs render this table. */
export const ERROR_CODES: Record<string, { status: number; description: string }> = {
  UNAUTHORIZED: { status: 401, description: "No credentials, or a token/session that is unknown, revoked or expired." },
  FORBIDDEN: { status: 403, description: "The caller's role may not perform this operation." },
  CROSS_SITE_REQUEST: {
    status: 403,
    description:
      "A request that may change something, authenticated by a browser session, that did not come from Flowbench's own pages (the browser's Sec-Fetch-Site is not same-origin, or its Origin is another host): cross-site request forgery is refused. Bearer tokens are not affected.",
  },
  NOT_FOUND: { status: 404, description: "The resource or path does not exist." },
  METHOD_NOT_ALLOWED: { status: 405, description: "The path exists but not with this HTTP method." },
  INVALID_JSON: { status: 400, description: "The request body is not valid JSON." },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: "The request body must be sent as application/json." },
  REQUEST_INVALID: {
    status: 400,
    description:
      "The body, query or path parameters do not match the documented schema; details list each problem with its path.",
  },
  WORKFLOW_INVALID: {
    status: 400,
    description: "The workflow has validation errors; details (and `errors`) list the findings.",
  },
  PAYLOAD_TOO_LARGE: { status: 413, description: "The body exceeds the documented size limit." },
  LOGIN_THROTTLED: {
    status: 429,
    description:
      "Sign-in (POST /api/auth/callback/credentials) refused without checking the password: too many failed attempts on the account (5 free) or from the client address (20 free). Wait `Retry-After` seconds (details: retryAfterSeconds): 1 s, doubling with each further failure, at most 15 minutes; a successful sign-in resets the account's count.",
  },
  SELF_LOCKOUT: {
    status: 400,
    description: "An admin may not disable their own account or remove their own admin role (Settings, tRPC).",
  },
  CONFLICT: { status: 409, description: "The request conflicts with the current state (e.g. a duplicate e-mail)." },
  AGENT_HAS_FROZEN_SETS: {
    status: 409,
    description:
      "The agent owns evaluation sets with frozen versions (release evidence, immutable); the message names them. Delete those sets first (DELETE /api/eval/sets/{id}, allowed while no run references them).",
  },
  JUDGE_IN_USE: {
    status: 409,
    description:
      "The judge agent is the judge of evaluation sets (the message and details name them); choose another judge for those sets first (PATCH /api/eval/sets/{id} with judge), then delete it.",
  },
  AGENT_NOT_PUBLISHED: {
    status: 409,
    description: "Online chat needs a published version: POST /api/builder/agents/{id}/publish.",
  },
  INPUT_REQUIRED: {
    status: 400,
    description: "A run lacks a required start input; the body names it and the recorded trace (traceId).",
  },
  INPUT_INVALID_TYPE: {
    status: 400,
    description: "A start input is not of its declared type; the body names it and the recorded trace (traceId).",
  },
  RUN_FAILED: {
    status: 502,
    description:
      "A node failed during the run; details carry the node's error code (e.g. LLM_UNAVAILABLE, HTTP_FORBIDDEN_DESTINATION) and nodeId, traceId names the trace.",
  },
  RUN_TIMEOUT: { status: 504, description: "The run exceeded its time limit; traceId names the trace." },
  TRACE_NOT_ONLINE: { status: 409, description: "Feedback is recorded only on online (chat/api) traces." },
  BACKUP_NOT_EMBEDDED: {
    status: 409,
    description:
      "GET /api/admin/backup backs up the embedded database a server runs on; this one runs on PostgreSQL (back up with npm run db:backup, pg_dump) or in memory.",
  },
  ...EVAL_ERROR_CODES,
  ...WEBHOOK_ERROR_CODES,
  INTERNAL: {
    status: 500,
    description: "An unexpected server error; the message carries a reference to the server log, never a stack trace.",
  },
};

/** One problem with an input: a JSON pointer (prefixed `path:`/`query:` outside the body), a message, a code. */
const InputProblem = z.object({ path: z.string(), message: z.string(), code: z.string() }).meta({
  id: "InputProblem",
  description:
    "path: JSON pointer (prefixed path: or query: outside the body); code: zod's issue code, unstorable_text, too_deep or malformed_path",
});

/**
 * The shape of one `details` entry for the codes whose details have one (every other code: anything). The OpenAPI
 * `Error` component is a union of one branch per code here (code fixed, details typed) and a branch for every other
 * code, so the conformance check (tests/integration/conformance.ts) fails a response whose details break the shape.
 * Keep this beside the table: a code that promises details names their shape here.
 */
export const ERROR_DETAILS: Record<string, ZodType> = {
  REQUEST_INVALID: InputProblem,
  IMPORT_INVALID: RowErrorOut,
  WORKFLOW_INVALID: FindingOut,
  PAYLOAD_TOO_LARGE: z.object({ limitBytes: z.int() }),
  LOGIN_THROTTLED: z.object({ retryAfterSeconds: z.int() }),
  AGENT_HAS_FROZEN_SETS: z.object({
    path: z.string().meta({ description: "/sets/{setId}" }),
    message: z.string().meta({ description: "the set's name" }),
    code: z.literal("frozen_set"),
  }),
  JUDGE_IN_USE: z.object({
    path: z.string().meta({ description: "/sets/{setId}" }),
    message: z.string().meta({ description: "the set's name" }),
    code: z.literal("judge_of_set"),
  }),
  INPUT_REQUIRED: RunError,
  INPUT_INVALID_TYPE: RunError,
  RUN_FAILED: RunError,
  RUN_TIMEOUT: RunError,
  SET_VERSION_INCOMPLETE: z.object({ key: z.string(), field: z.string(), message: z.string() }),
  EVAL_LIMIT_EXCEEDED: z.object({ limit: z.string(), value: z.number() }),
  RUN_STATE_CONFLICT: z.object({ status: z.string() }),
  ITEM_NOT_JUDGEABLE: z.object({ status: z.string() }),
  RUNS_NOT_COMPARABLE: z.object({ run: z.string(), field: z.enum(["agent", "setVersion"]), value: z.string() }),
  VERDICT_CONFLICT: z.object({ expectedVersion: z.int(), verdictVersion: z.int(), verdict: z.unknown() }),
};

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const typedCodes = Object.keys(ERROR_DETAILS);

/** The error shape as OpenAPI publishes it (component `Error`): details typed per code where they have a shape. */
export const DocumentedErrorOut = z
  .object({
    error: z.union([
      ...typedCodes.map((code) =>
        z.object({ code: z.literal(code), message: z.string(), details: z.array(ERROR_DETAILS[code]!) }),
      ),
      z.object({
        code: z
          .string()
          .regex(new RegExp(`^(?!(?:${typedCodes.map(escapeRegex).join("|")})$)`))
          .meta({
            description: `Any other stable code (see the table); ${typedCodes.join(", ")} use their own branch`,
          }),
        message: z.string(),
        details: z.array(z.unknown()),
      }),
    ]),
  })
  .meta({
    id: "Error",
    description:
      "The one error shape. details: typed per code where the code table gives it a shape (InputProblem for REQUEST_INVALID, EvalRowError for IMPORT_INVALID, Finding for WORKFLOW_INVALID, RunError for run failures, ...).",
  });
