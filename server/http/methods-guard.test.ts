import { EventEmitter } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installMethodsGuard, loadRouteMethods } from "./methods-guard";

/**
 * The start-up guard for methods Next.js cannot represent: the seven standard methods as Allow until the route table
 * is loaded (start-up loads it last, so the endpoint list never delays the probes), then the route's own methods.
 * It reaches a server through front-door.ts (the `http.server.request.start` diagnostics channel), never by patching
 * `http.Server.prototype`.
 */
let server: http.Server;
let base: string;
beforeAll(async () => {
  installMethodsGuard();
  server = http.createServer((_req, res) => res.end("reached the app"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

function send(method: string, path: string): Promise<{ status: number; allow?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the methods guard", () => {
  it("answers TRACE with the seven methods before the route table is loaded, with the route's methods after; standard methods pass", async () => {
    const before = await send("TRACE", "/api/eval/meta");
    expect(before.status).toBe(405);
    expect(before.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(JSON.parse(before.body)).toMatchObject({ error: { code: "METHOD_NOT_ALLOWED" } });
    expect(await send("GET", "/api/eval/meta")).toMatchObject({ status: 200, body: "reached the app" });

    await loadRouteMethods();
    await loadRouteMethods(); // idempotent
    expect((await send("TRACE", "/api/eval/meta")).allow).toBe("GET, HEAD, OPTIONS");
    expect((await send("PROPFIND", "/api/builder/agents/abc")).allow).toBe("GET, PATCH, DELETE, HEAD, OPTIONS");
    expect((await send("TRACE", "/eval")).allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"); // no REST route: the seven
    expect(http.Server.prototype.emit).toBe(EventEmitter.prototype.emit); // nothing patched
  });
});
