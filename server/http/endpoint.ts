import { createHash, timingSafeEqual } from "node:crypto";
import { type z, ZodError, type ZodType } from "zod";
import { getDb, type Db } from "../db/client";
import type { AuthMode } from "../auth/principal";
import { can, type Permission } from "../auth/roles";
import type { Principal } from "../auth/service";
import { closeIfUnread, limitBody } from "../core/body";
import { ApiError, errors } from "../core/errors";
import { findUnstorable } from "../core/text";
import { metrics } from "../telemetry/metrics";
import { failSpan, inSpan } from "../telemetry/tracing";

/**
 * A REST endpoint described once: the route handler and the OpenAPI document are both derived from this.
 * Route files stay a line long (`export const POST = handle(validateEndpoint)`).
 */
export type EndpointResponse = { description: string; schema?: ZodType };

export type Endpoint<P extends ZodType = ZodType, Q extends ZodType = ZodType, B extends ZodType = ZodType> = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI-style path, e.g. /api/builder/agents/{id} */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth: AuthMode | "none";
  permission?: Permission;
  /**
   * A bearer token that opens this endpoint besides the users' own (FLOWBENCH_METRICS_TOKEN for GET /api/metrics),
   * compared in constant time; the endpoint then runs without a principal. Unset (undefined returned): users only.
   */
  serviceToken?: () => string | undefined;
  params?: P;
  query?: Q;
  body?: B;
  /** Defaults to DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  responses: Record<number, EndpointResponse>;
  handler: (ctx: {
    principal: Principal | null;
    params: z.output<P>;
    query: z.output<Q>;
    body: z.output<B>;
    db: Db;
    request: Request;
  }) => Promise<{ status: number; body: unknown } | Response>;
};

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export function defineEndpoint<P extends ZodType, Q extends ZodType, B extends ZodType>(
  e: Endpoint<P, Q, B>,
): Endpoint<P, Q, B> {
  return e;
}

export function json(status: number, body: unknown, headers?: HeadersInit): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

function zodDetails(error: ZodError, root: string) {
  return error.issues.map((i) => ({
    path: `${root}${i.path.map((p) => `/${String(p).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("")}`,
    message: i.message,
    code: i.code,
  }));
}

function parsePart<T extends ZodType>(schema: T | undefined, value: unknown, where: string): z.output<T> {
  if (!schema) return undefined as z.output<T>;
  rejectUnstorableText(value, where === "body" ? "" : `${where}:`);
  const result = schema.safeParse(value);
  if (!result.success) {
    throw errors.badRequest(
      "REQUEST_INVALID",
      `The ${where} is invalid: ${result.error.issues[0]?.message ?? "see details"}`,
      zodDetails(result.error, where === "body" ? "" : `${where}:`),
    );
  }
  return result.data;
}

/**
 * One check for every input (see server/core/text.ts): unstorable text or nesting deeper than MAX_INPUT_DEPTH is a
 * 400 naming the field, before any schema or database sees it.
 */
export function rejectUnstorableText(value: unknown, root: string): void {
  const found = findUnstorable(value);
  if (found) {
    const path = `${root}${found.path === "/" ? "" : found.path}`;
    throw errors.badRequest("REQUEST_INVALID", `${path || "The body"} ${found.message}`, [
      { path, message: found.message, code: found.code },
    ]);
  }
}

/**
 * The query string as an object: a parameter given once is its text, one given several times the list of its texts
 * (`run=R-1&run=R-2`, OpenAPI's form style with explode). A schema that takes one text refuses a repeated parameter
 * with a 400 instead of silently keeping one of them.
 */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length === 1 ? all[0]! : all;
  }
  return out;
}

let errorCounter = 0;
/** Unexpected errors are logged with a reference; the client sees the reference, never a stack trace. */
export function internalError(error: unknown): Response {
  const ref = `E${Date.now().toString(36)}${(errorCounter++).toString(36)}`.toUpperCase();
  console.error(`[flowbench] internal error ${ref}:`, error);
  return json(500, { error: { code: "INTERNAL", message: `Internal error (reference ${ref})`, details: [] } });
}

/** Sent with every 401 (RFC 6750), so standard clients can tell the caller needs a bearer token. */
export const WWW_AUTHENTICATE = 'Bearer realm="flowbench"';

export function errorResponse(error: unknown): Response {
  if (error instanceof ApiError)
    return json(
      error.status,
      error.body(),
      error.status === 401 ? { "www-authenticate": WWW_AUTHENTICATE } : undefined,
    );
  if (error instanceof ZodError)
    return json(400, {
      error: { code: "REQUEST_INVALID", message: "The request is invalid", details: zodDetails(error, "") },
    });
  return internalError(error);
}

export async function authorize(
  endpoint: Pick<Endpoint, "auth" | "permission" | "serviceToken" | "method">,
  headers: Headers,
): Promise<Principal | null> {
  if (endpoint.auth === "none") return null;
  const service = endpoint.serviceToken?.();
  if (service && sameSecret(/^Bearer\s+(\S+)\s*$/i.exec(headers.get("authorization") ?? "")?.[1], service)) return null;
  const { resolvePrincipal } = await import("../auth/principal");
  const principal = await resolvePrincipal(headers, endpoint.auth, endpoint.method);
  if (!principal) {
    throw errors.unauthorized(
      endpoint.auth === "token"
        ? "A valid API token is required: send Authorization: Bearer <token>"
        : "Sign in, or send Authorization: Bearer <token>",
    );
  }
  if (endpoint.permission && !can(principal.role, endpoint.permission)) {
    throw errors.forbidden(`Your role (${principal.role}) may not do this (needs ${endpoint.permission})`);
  }
  return principal;
}

/** Equal secrets, compared in constant time (over their SHA-256, so their lengths do not show either). */
function sameSecret(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const digest = (v: string) => createHash("sha256").update(v).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

type RouteContext = { params: Promise<Record<string, string | string[]>> };

/**
 * Turns an endpoint into a Next.js route handler: auth, parse, call, map errors. The body is read last, after
 * authentication and the other checks on the headers, and never past its limit (server/core/body.ts); an answer that
 * leaves it unread (a refusal, an endpoint that takes no body) closes the connection instead of draining it.
 */
export function handle(endpoint: Endpoint<ZodType, ZodType, ZodType>) {
  const spanName = `${endpoint.method} ${endpoint.path}`;
  const attributes = {
    "http.request.method": endpoint.method,
    "http.route": endpoint.path,
    "flowbench.operation_id": endpoint.operationId,
  };
  // one span per request (server/telemetry/tracing.ts; a no-op while traces are off): the route template, never the
  // path's values, its headers or its body
  return (request: Request, context: RouteContext): Promise<Response> =>
    inSpan(spanName, { kind: "server", attributes }, async (span) => {
      const response = await answer(endpoint, request, context);
      span?.setAttribute("http.response.status_code", response.status);
      if (response.status >= 500) failSpan(span, String(response.status));
      return response;
    });
}

async function answer(
  endpoint: Endpoint<ZodType, ZodType, ZodType>,
  request: Request,
  context: RouteContext,
): Promise<Response> {
  const started = performance.now();
  // nothing is read until the body is asked for, after authentication; an endpoint without a body schema that
  // reads the request itself (MCP) gets the same limit
  const guarded = limitBody(request, endpoint.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  let response: Response;
  try {
    const principal = await authorize(endpoint, request.headers);
    const params = parsePart(endpoint.params, await context.params, "path");
    const url = new URL(request.url);
    const query = parsePart(endpoint.query, queryObject(url.searchParams), "query");
    let body: unknown;
    if (endpoint.body) {
      const type = request.headers.get("content-type") ?? "";
      if (type && !/^application\/(.+\+)?json\b/i.test(type)) {
        throw new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as JSON with Content-Type: application/json");
      }
      const text = await guarded.text();
      let raw: unknown;
      try {
        raw = text.trim() ? JSON.parse(text) : undefined;
      } catch (e) {
        throw errors.badRequest("INVALID_JSON", `The request body is not valid JSON: ${(e as Error).message}`);
      }
      if (raw === undefined) throw errors.badRequest("REQUEST_INVALID", "A JSON request body is required");
      body = parsePart(endpoint.body, raw, "body");
    }
    const result = await endpoint.handler({
      principal,
      params,
      query,
      body,
      db: await getDb(),
      get request() {
        return guarded.request; // made only for a handler that reads the request itself (MCP)
      },
    });
    response = result instanceof Response ? result : json(result.status, result.body);
  } catch (error) {
    response = errorResponse(error);
  }
  metrics().httpDuration.observe(
    { route: endpoint.path, method: endpoint.method, status: String(response.status) },
    (performance.now() - started) / 1000,
  );
  return closeIfUnread(response, guarded.unread());
}

const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type RouteMethod = (typeof ROUTE_METHODS)[number];

/** The `Allow` header of a route serving `served`: those methods in a fixed order, HEAD with GET, and OPTIONS. */
export function allowHeader(served: readonly string[]): string {
  const own = ROUTE_METHODS.filter((m) => served.includes(m));
  return [...own, ...(own.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
}

/**
 * Handlers for the methods a route does not serve: 405 METHOD_NOT_ALLOWED in the one JSON error shape with an
 * `Allow` header (RFC 9110), instead of Next's empty 405; and its OPTIONS: 204 with the same `Allow` (Next's own
 * OPTIONS would list every method the file exports, these refusals included). Each app/api route file exports them
 * beside its own: `export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);` (HEAD Next answers
 * itself with GET).
 */
export function otherMethods(served: RouteMethod[]): Record<RouteMethod | "OPTIONS", (request: Request) => Response> {
  const allow = allowHeader(served);
  const refuse = (request: Request) =>
    json(
      405,
      {
        error: {
          code: "METHOD_NOT_ALLOWED",
          message: `${request.method} is not allowed on ${new URL(request.url).pathname}; allowed: ${allow}`,
          details: [],
        },
      },
      { allow },
    );
  const options = () => new Response(null, { status: 204, headers: { allow, "cache-control": "no-store" } });
  const handlers = Object.fromEntries(ROUTE_METHODS.map((m) => [m, refuse])) as Record<
    RouteMethod,
    (request: Request) => Response
  >;
  return { ...handlers, OPTIONS: options };
}
