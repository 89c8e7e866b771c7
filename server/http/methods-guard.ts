import http from "node:http";

/** The decoded-enough path of a request target (no query), or null when it is not a path. */
function pathOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url, "http://localhost").pathname;
  } catch {
    return null;
  }
}

/**
 * Methods no route serves and Next.js cannot even represent: Node's fetch `Request` refuses TRACE and TRACK, so Next
 * answers them with a 500 text/plain before any route or proxy runs, and extension methods (PROPFIND, ...) reach no
 * handler either. Installed once at start-up (server/startup.ts, in the server process), this answers every method
 * outside the standard seven with 405 METHOD_NOT_ALLOWED in the one JSON error shape and an `Allow` header: the
 * methods of the REST route at that path (`allowFor`, from the endpoint list, the same header the route's own 405
 * sends), or the seven the server answers for any other path. The route table comes from the endpoint list, which
 * loads every endpoint, service and schema: start-up loads it (`loadRouteMethods`, a dynamic import) once the rest of
 * start-up is done, so it never delays the liveness probe; until then every path answers with the seven. It runs before Next sees the request: HTTP servers
 * dispatch through `emit("request")`, looked up on the prototype at each request, so the server Next already created
 * is covered. (A standard method a route does not serve gets that route's own 405: `otherMethods` in
 * server/http/endpoint.ts.)
 */
export const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

type Emit = (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
type AllowFor = (pathname: string) => string | null;
type Globals = { __flowbenchMethodsGuard?: boolean; __flowbenchAllowFor?: AllowFor };
const globals = globalThis as typeof globalThis & Globals;

/** Loads the route table (server/http/routes.ts) for route-specific `Allow` headers. Idempotent. */
export async function loadRouteMethods(): Promise<void> {
  if (globals.__flowbenchAllowFor) return;
  const { allowFor, routeFor } = await import("./routes");
  routeFor("/"); // builds the table now, not on the first unusual request
  globals.__flowbenchAllowFor = allowFor;
}

export function installMethodsGuard(): void {
  if (globals.__flowbenchMethodsGuard) return;
  globals.__flowbenchMethodsGuard = true;
  const emit = http.Server.prototype.emit as Emit;
  const served: readonly string[] = SERVED_METHODS;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      if (req.method && !served.includes(req.method)) {
        const pathname = pathOf(req.url);
        const allowFor = globals.__flowbenchAllowFor;
        const allow = (pathname !== null && allowFor?.(pathname)) || served.join(", ");
        res.writeHead(405, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", allow });
        res.end(
          JSON.stringify({
            error: {
              code: "METHOD_NOT_ALLOWED",
              message: `${req.method} is not allowed on ${pathname ?? "this path"}; allowed: ${allow}`,
              details: [],
            },
          }),
        );
        return true;
      }
    }
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
}
