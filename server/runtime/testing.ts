/**
 * A local "webhook" HTTP server for runtime tests, the integration setup and benchmarks: it stands in for the
 * owner's API (the sample app's dishes) and for hostile answers (redirects, huge and slow bodies). It counts every
 * request, so a test can prove that a run made none. Not part of the public API.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";

export type SeenRequest = { method: string; path: string; headers: http.IncomingHttpHeaders; body: string };

export type WebhookServer = { url: string; origin: string; requests: SeenRequest[]; close(): Promise<void> };

export const SAMPLE_DISHES = [
  { id: "d1", name: "Mapo tofu", scene: "dinner" },
  { id: "d2", name: "Kung pao chicken", scene: "dinner" },
  { id: "d3", name: "Scallion pancake", scene: "breakfast" },
];

export async function startWebhookServer(): Promise<WebhookServer> {
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://local");
      const body = Buffer.concat(chunks).toString("utf8");
      if (url.pathname === "/__stats") {
        // For tests in another process: how many requests arrived (this one not counted).
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ count: requests.length, paths: requests.map((r) => r.path) }));
        return;
      }
      requests.push({ method: req.method ?? "GET", path: `${url.pathname}${url.search}`, headers: req.headers, body });
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(value));
      };
      const q = (name: string) => url.searchParams.get(name);
      switch (url.pathname) {
        case "/health":
          return json(200, { status: "ok" });
        case "/api/meal-scenes":
          return json(200, { items: [{ id: "dinner" }, { id: "breakfast" }] });
        case "/api/dishes": {
          const scene = q("scene");
          return json(200, { scene, dishes: SAMPLE_DISHES.filter((d) => !scene || d.scene === scene) });
        }
        case "/echo":
          return json(200, {
            method: req.method,
            headers: req.headers,
            body,
            query: Object.fromEntries(url.searchParams),
          });
        case "/session":
          // An API that hands out credentials: a cookie and a token in the body (for trace redaction tests).
          return json(
            200,
            { access_token: "tok-from-server", user: { name: "ada", password: "pw-from-server" }, count: 2 },
            { "set-cookie": "sid=cookie-from-server; HttpOnly", "x-session-token": "hdr-from-server" },
          );
        case "/redirect": {
          res.writeHead(Number(q("status") ?? 302), { location: q("to") ?? "/health" });
          return res.end();
        }
        case "/loop":
          res.writeHead(302, { location: "/loop" });
          return res.end();
        case "/big": {
          const bytes = Number(q("bytes") ?? 1024);
          const data = Buffer.alloc(bytes, 97);
          if (q("gzip")) {
            res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
            return res.end(zlib.gzipSync(data));
          }
          if (q("chunked")) {
            res.writeHead(200, { "content-type": "text/plain" });
            for (let i = 0; i < bytes; i += 65536) res.write(data.subarray(i, i + 65536));
            return res.end();
          }
          res.writeHead(200, { "content-type": "text/plain", "content-length": String(bytes) });
          return res.end(data);
        }
        case "/slow":
          setTimeout(() => json(200, { slow: true }), Number(q("ms") ?? 1000));
          return;
        case "/status":
          return json(Number(q("code") ?? 500), { error: "as requested" });
        case "/text":
          res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
          return res.end("plain text answer");
        default:
          return json(404, { error: "not found" });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
