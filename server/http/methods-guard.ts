import type http from "node:http";
import { addDoor } from "./front-door";

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
 * Methods no route serves and Next.js cannot even represent: its WHATWG `Request` refuses TRACE and TRACK, so Next
 * answers them with a 500 text/plain before proxy.ts or any route runs, and extension methods (PROPFIND, ...) get an
 * empty 400 from the route module. Installed once at start-up (server/startup.ts, in the server process), this
 * answers every method outside the standard seven with 405 METHOD_NOT_ALLOWED in the one JSON error shape and an
 * `Allow` header: the methods of the REST route at that path (`allowFor`, from the endpoint list, the same header the
 * route's own 405 and OPTIONS send), or the seven the server answers for any other path. The route table comes from
 * the endpoint list, which loads every endpoint, service and schema: start-up loads it (`loadRouteMethods`, a dynamic
 * import) once the rest of start-up is done, so it never delays the liveness probe; until then every path answers
 * with the seven. It runs before Next sees the request, through front-door.ts (public Node APIs, no patching). (A
 * standard method a route does not serve gets that route's own 405: `otherMethods` in server/http/endpoint.ts.)
 */
export const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

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
  const served: readonly string[] = SERVED_METHODS;
  addDoor((req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!req.method || served.includes(req.method)) return false;
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
  });
}
