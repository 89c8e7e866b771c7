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
  unauthorized: (message = "Authentication required: send Authorization: Bearer <token>") => new ApiError(401, "UNAUTHORIZED", message),
  forbidden: (message: string) => new ApiError(403, "FORBIDDEN", message),
  notFound: (what: string) => new ApiError(404, "NOT_FOUND", `${what} was not found`),
  badRequest: (code: string, message: string, details: unknown[] = []) => new ApiError(400, code, message, details),
  conflict: (code: string, message: string) => new ApiError(409, code, message),
  tooLarge: (limit: number) => new ApiError(413, "PAYLOAD_TOO_LARGE", `The request body exceeds the limit of ${limit} bytes`, [{ limitBytes: limit }]),
};

/** The error shape as a schema (OpenAPI, response checks). */
export const ErrorOut = z
  .object({ error: z.object({ code: z.string(), message: z.string(), details: z.array(z.unknown()) }) })
  .meta({ id: "Error" });
