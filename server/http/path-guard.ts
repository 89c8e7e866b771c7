import type http from "node:http";
import { addDoor } from "./front-door";

/** A path whose percent-encoding is not UTF-8 (e.g. %ED%A0%80, an unpaired surrogate) cannot be decoded. */
export function malformedPath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

type Globals = { __flowbenchPathGuard?: boolean };

/**
 * API paths Next.js could not decode into route parameters (it would answer 500 text/plain before any route runs) are
 * answered 400 REQUEST_INVALID in the one JSON error shape, before Next sees them (front-door.ts). This was proxy.ts's
 * job; proxy.ts no longer runs on API paths, because Next reads a request's whole body before running it (to hand
 * it a copy), which made every API request, authenticated or not, be read to its end before its route could refuse
 * it (server/core/body.ts).
 */
export function installPathGuard(): void {
  const g = globalThis as typeof globalThis & Globals;
  if (g.__flowbenchPathGuard) return;
  g.__flowbenchPathGuard = true;
  addDoor((req: http.IncomingMessage, res: http.ServerResponse) => {
    const pathname = (req.url ?? "").split("?")[0]!;
    if (!pathname.startsWith("/api/") || !malformedPath(pathname)) return false;
    res.writeHead(400, {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      // the request is not read: its body, if any, is not drained
      ...(req.headers["content-length"] || req.headers["transfer-encoding"] ? { connection: "close" } : {}),
    });
    res.end(
      JSON.stringify({
        error: {
          code: "REQUEST_INVALID",
          message: "The path is not valid percent-encoded UTF-8",
          details: [{ path: "path:", message: "not valid percent-encoded UTF-8", code: "malformed_path" }],
        },
      }),
    );
    return true;
  });
}
