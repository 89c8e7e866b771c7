import diagnostics from "node:diagnostics_channel";
import type http from "node:http";

/**
 * Answers a few requests before Next.js sees them, with public Node APIs only (no patched prototype): Node publishes
 * every request an HTTP server receives on the documented diagnostics channel `http.server.request.start`, with the
 * server, before it emits the server's `request` event. The first time a server shows up there, its `request`
 * listeners (Next's request handler) are wrapped by one listener that asks each registered door first; a door that
 * answers the request returns true and Next never sees it. Used for what Next cannot do itself: the start-up probes
 * (startup-probes.ts, while Next holds every request until start-up is done) and methods Next cannot represent
 * (methods-guard.ts: its WHATWG `Request` refuses TRACE and TRACK, so neither proxy.ts nor a route handler ever runs).
 */
export type Door = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
type Listener = (req: http.IncomingMessage, res: http.ServerResponse) => void;
type Globals = { __flowbenchDoors?: { doors: Door[]; wrapped: WeakSet<http.Server> } };

/** Registers `door` (module instances bundled twice share one list through globalThis); doors run in this order. */
export function addDoor(door: Door): void {
  const g = globalThis as typeof globalThis & Globals;
  if (!g.__flowbenchDoors) {
    const state = { doors: [] as Door[], wrapped: new WeakSet<http.Server>() };
    g.__flowbenchDoors = state;
    diagnostics.subscribe("http.server.request.start", (message) => {
      const { server } = message as { server: http.Server };
      if (state.wrapped.has(server)) return;
      const listeners = server.listeners("request") as Listener[];
      if (listeners.length === 0) return;
      state.wrapped.add(server);
      server.removeAllListeners("request");
      server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
        for (const d of state.doors) if (d(req, res)) return;
        for (const listener of listeners) listener.call(server, req, res);
      });
    });
  }
  g.__flowbenchDoors.doors.push(door);
}
