import type { ZodType } from "zod";
import type { AnyOperation, Operation } from "../auth/operation";
import type { AuthMode } from "../auth/principal";
import type { Endpoint, EndpointResponse } from "./endpoint";

/**
 * The REST face of an operation (server/auth/operation.ts): `rest(op, { method, path, summary, responses })` is an
 * `Endpoint` whose id, permission, schemas and handler come from the declaration. REST adds only what is REST's: the
 * method and path, its summary (and any REST-only text after the operation's description), the documented statuses
 * and how the answer is sent.
 *
 * `responses`: a success status given as a string documents the operation's output schema with that description; an
 * object is used as is (a 204 without body, a file). The answer goes out as JSON with the one success status, or
 * `status(answer)` when there are several (201 created, 200 already there); `respond` sends anything else; `refuse`
 * turns an answer REST reports as an error into that error (validate: an invalid workflow is 400 WORKFLOW_INVALID
 * over REST, findings to show over tRPC).
 */
export type RestSpec<R> = {
  method: Endpoint["method"];
  path: string;
  summary: string;
  /** What only REST adds to the operation's own description (which comes first). */
  description?: string;
  tag: string;
  auth: AuthMode;
  maxBodyBytes?: number;
  responses: Record<number, string | EndpointResponse>;
  status?: (answer: R) => number;
  respond?: (answer: R) => Response;
  refuse?: (answer: R) => Error | undefined;
};

/** An endpoint derived from an operation, which it names (the faces test follows the link). */
export type RestEndpoint = Endpoint & { operation: AnyOperation };

// biome-ignore lint/suspicious/noExplicitAny: any operation's schemas; the answer type R is what matters here
export function rest<R>(op: Operation<any, any, any, ZodType, R>, spec: RestSpec<R>): RestEndpoint {
  const { status, respond, refuse, responses, ...rest } = spec;
  const documented: Record<number, EndpointResponse> = {};
  for (const [code, r] of Object.entries(responses))
    documented[Number(code)] = typeof r === "string" ? { description: r, schema: op.output } : r;
  const successes = Object.keys(responses)
    .map(Number)
    .filter((c) => c >= 200 && c < 300);
  if (successes.length !== 1 && !status && !respond)
    throw new Error(`${op.id}: ${successes.length} success statuses documented; say which one answers (status)`);
  const only = successes[0] ?? 200;
  const description = [op.description, rest.description].filter(Boolean).join("\n\n") || undefined;
  return {
    ...rest,
    description,
    operationId: op.id,
    permission: op.permission,
    params: op.params,
    query: op.query,
    body: op.body,
    responses: documented,
    operation: op,
    handler: async ({ db, principal, params, query, body, request }) => {
      // every operation needs a caller (auth is never "none" here), so authorize() has returned one
      const answer = await op.run({ db, principal: principal!, params, query, body, signal: request.signal });
      const refused = refuse?.(answer);
      if (refused) throw refused;
      if (respond) return respond(answer);
      return { status: status ? status(answer) : only, body: answer };
    },
  };
}
