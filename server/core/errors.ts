import { z } from "zod";

/**
 * The one error shape every API failure uses: `{ "error": { "code", "message", "details" } }`.
 * Codes are stable identifiers (documented in /docs); messages are for people.
 */
export type ErrorBody = { error: { code: string; message: string; details: unknown[] } };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown[] = [],
    /** extra top-level fields kept beside `error` (validation results carry valid/errors/warnings) */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  body(): ErrorBody & Record<string, unknown> {
    return { ...this.extra, error: { code: this.code, message: this.message, details: this.details } };
  }
}

export const errors = {
  unauthorized: (message = "Authentication required: send Authorization: Bearer <token>") =>
    new ApiError(401, "UNAUTHORIZED", message),
  forbidden: (message: string) => new ApiError(403, "FORBIDDEN", message),
  crossSite: (reason: string) =>
    new ApiError(
      403,
      "CROSS_SITE_REQUEST",
      `A signed-in browser may change things only from Flowbench's own pages, and this request was refused: ${reason}`,
    ),
  notFound: (what: string) => new ApiError(404, "NOT_FOUND", `${what} was not found`),
  badRequest: (code: string, message: string, details: unknown[] = []) => new ApiError(400, code, message, details),
  conflict: (code: string, message: string) => new ApiError(409, code, message),
  tooLarge: (limit: number) =>
    new ApiError(413, "PAYLOAD_TOO_LARGE", `The request body exceeds the limit of ${limit} bytes`, [
      { limitBytes: limit },
    ]),
};

/**
 * `schema.parse(value)` for a service called directly (scripts, tests, other services): a value the schema refuses is
 * the 400 REQUEST_INVALID both faces answer, naming each problem's path (`/from`), instead of a bare ZodError. (The
 * faces parse their input before the service; this matters to direct callers.)
 */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((i) => ({
    path: i.path.map((p) => `/${String(p)}`).join("") || "/",
    message: i.message,
    code: i.code,
  }));
  throw new ApiError(
    400,
    "REQUEST_INVALID",
    `The request is invalid: ${details[0] ? `${details[0].path} ${details[0].message}` : "see details"}`,
    details,
  );
}

/**
 * The error shape as a schema (endpoints name it for their error responses). The OpenAPI document publishes it as
 * the `Error` component with each code's details typed where the code table gives them a shape
 * (server/http/error-codes.ts `ERROR_DETAILS`), so a response whose details break that shape fails conformance.
 */
export const ErrorOut = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.array(z.unknown()) }),
});
