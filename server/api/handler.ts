import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { closeIfUnread, limitBody } from "../core/body";
import { metrics } from "../telemetry/metrics";
import { failSpan, inSpan } from "../telemetry/tracing";
import { EVAL_LIMITS } from "../eval";
import { appRouter } from "./root";
import { createContext } from "./trpc";

/**
 * The largest tRPC request body: the largest input any procedure takes, an evaluation upload (the file travels
 * JSON-escaped), as over REST. A batch shares it.
 */
export const TRPC_MAX_BODY_BYTES = EVAL_LIMITS.maxUploadBodyBytes;

/**
 * The tRPC route (app/api/trpc/[trpc]/route.ts). tRPC reads the body only when a procedure first asks for its input,
 * and every procedure checks the caller before that (`procedure` in trpc.ts), so an unauthenticated call is refused
 * (401) without reading a byte; an authenticated one reads at most TRPC_MAX_BODY_BYTES (413 PAYLOAD_TOO_LARGE at once
 * on a larger Content-Length, at the first chunk past it otherwise: server/core/body.ts), and an answer that leaves
 * the body unread closes the connection.
 */
export function handleTrpc(req: Request): Promise<Response> {
  const route = trpcRoute(req.url);
  // one span per request (a no-op while traces are off), named like the metrics' route label
  return inSpan(
    `${req.method} ${route}`,
    { kind: "server", attributes: { "http.request.method": req.method, "http.route": route } },
    async (span) => {
      const started = performance.now();
      const guarded = limitBody(req, TRPC_MAX_BODY_BYTES);
      const response = await fetchRequestHandler({
        endpoint: "/api/trpc",
        req: guarded.request,
        router: appRouter,
        createContext: () => createContext({ headers: req.headers, method: req.method }),
      });
      metrics().httpDuration.observe(
        { route, method: req.method, status: String(response.status) },
        (performance.now() - started) / 1000,
      );
      span?.setAttribute("http.response.status_code", response.status);
      if (response.status >= 500) failSpan(span, String(response.status));
      return closeIfUnread(response, guarded.unread());
    },
  );
}

const PROCEDURES = new Set(Object.keys(appRouter._def.procedures));

/**
 * The route label of a tRPC request: `/api/trpc/<procedure>`; `/api/trpc/(batch)` for several at once (their names
 * in one label would make a series per combination the pages happen to batch) and `/api/trpc/(unknown)` for a name
 * no procedure has (a label per made-up name would let any caller grow the metrics without bound).
 */
function trpcRoute(url: string): string {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname.slice("/api/trpc/".length));
  } catch {
    return "/api/trpc/(unknown)";
  }
  if (path.includes(",")) return "/api/trpc/(batch)";
  return PROCEDURES.has(path) ? `/api/trpc/${path}` : "/api/trpc/(unknown)";
}
