import type http from "node:http";
import { readiness } from "../core/readiness";
import { addDoor } from "./front-door";

/**
 * Next.js holds every request until instrumentation's `register()` (our start-up: migrations, possibly waiting for
 * another instance's migration, access bootstrap, the evaluation worker) has finished, so without this a load
 * balancer's liveness probe would hang for as long as a migration takes and the instance could be restarted in the
 * middle of it. Installed at the very beginning of start-up, this answers the two probes itself while start-up is not
 * done, before Next sees the request:
 * - `GET /api/health` (liveness): 200 `{ status: "ok", database: { kind, status: "starting" } }` (the process answers);
 * - `GET /api/health/ready` (readiness): 503 `{ status: "starting" | "failed", since, detail, database }`.
 * Every other request waits for start-up as before (a browser opening the app during the first start's migrations
 * sees the page once they are applied). Once ready, the routes in app/api/health answer with their database checks.
 * Answered through front-door.ts (public Node APIs), like the methods guard (server/http/methods-guard.ts).
 */
type Globals = { __flowbenchStartupProbes?: boolean };

export function installStartupProbes(databaseKind: string): void {
  const g = globalThis as typeof globalThis & Globals;
  if (g.__flowbenchStartupProbes) return;
  g.__flowbenchStartupProbes = true;
  addDoor((req: http.IncomingMessage, res: http.ServerResponse) => {
    const state = readiness();
    if (state.state === "ready" || (req.method !== "GET" && req.method !== "HEAD")) return false;
    const path = (req.url ?? "").split("?")[0];
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : JSON.stringify(body));
      return true;
    };
    const database = { kind: databaseKind, status: "starting" };
    if (path === "/api/health") return answer(200, { status: "ok", database });
    if (path === "/api/health/ready")
      return answer(503, {
        status: state.state,
        since: state.since,
        ...(state.detail ? { detail: state.detail } : {}),
        database,
      });
    return false;
  });
}
