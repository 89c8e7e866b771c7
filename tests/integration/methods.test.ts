import http from "node:http";
import { describe, expect, it } from "vitest";
import { shapeServers } from "./client";

/**
 * Every REST path, every method it does not serve: 405 METHOD_NOT_ALLOWED in the JSON error shape with an `Allow`
 * header listing exactly the methods the path serves (HEAD with GET, and OPTIONS), from the server's own OpenAPI
 * document. The standard methods reach the route's `otherMethods` handlers; TRACE (which Next.js cannot represent)
 * reaches the start-up guard, which answers with the same route's Allow.
 */
const STANDARD = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function expectedAllow(served: string[]): string {
  const own = STANDARD.filter((m) => served.includes(m));
  return [...own, ...(own.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
}

function raw(
  url: string,
  method: string,
  token: string,
): Promise<{ status: number; allow: string | undefined; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { authorization: `Bearer ${token}` } }, (r) => {
      let body = "";
      r.on("data", (c: Buffer) => (body += c.toString()));
      r.on("end", () =>
        resolve({ status: r.statusCode ?? 0, allow: r.headers.allow, type: r.headers["content-type"], body }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

for (const server of shapeServers()) {
  describe(`wrong methods on ${server.name}`, () => {
    it("every path answers each method it does not serve with 405 METHOD_NOT_ALLOWED and exactly its own Allow", async () => {
      const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
        paths: Record<string, Record<string, unknown>>;
      };
      const problems: string[] = [];
      let checked = 0;
      for (const [template, operations] of Object.entries(doc.paths)) {
        const served = Object.keys(operations).map((m) => m.toUpperCase());
        const allow = expectedAllow(served);
        const path = template.replace(/\{[^}]+\}/g, "x1");
        for (const method of [...STANDARD.filter((m) => !served.includes(m)), "TRACE", "PROPFIND"]) {
          const res = await raw(`${server.url}${path}`, method, server.adminToken);
          checked++;
          let code: unknown;
          try {
            code = (JSON.parse(res.body) as { error?: { code?: unknown } }).error?.code;
          } catch {
            code = `not JSON: ${res.body.slice(0, 80)}`;
          }
          if (
            res.status !== 405 ||
            code !== "METHOD_NOT_ALLOWED" ||
            !res.type?.includes("application/json") ||
            res.allow !== allow
          ) {
            problems.push(
              `${method} ${template}: ${res.status} ${String(code)} allow=${res.allow ?? "(none)"} (expected 405 METHOD_NOT_ALLOWED allow=${allow})`,
            );
          }
        }
      }
      expect(Object.keys(doc.paths).length).toBeGreaterThan(50);
      expect(checked).toBeGreaterThan(150);
      expect(problems).toEqual([]);
    });

    it("OPTIONS on every path answers 204 with exactly the Allow its 405 sends; on an unknown API path 404", async () => {
      const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
        paths: Record<string, Record<string, unknown>>;
      };
      const problems: string[] = [];
      for (const [template, operations] of Object.entries(doc.paths)) {
        const allow = expectedAllow(Object.keys(operations).map((m) => m.toUpperCase()));
        const res = await raw(`${server.url}${template.replace(/\{[^}]+\}/g, "x1")}`, "OPTIONS", server.adminToken);
        if (res.status !== 204 || res.allow !== allow)
          problems.push(
            `OPTIONS ${template}: ${res.status} allow=${res.allow ?? "(none)"} (expected 204 allow=${allow})`,
          );
      }
      expect(problems).toEqual([]);
      const unknown = await raw(`${server.url}/api/no-such-thing`, "OPTIONS", server.adminToken);
      expect(unknown.status).toBe(404);
      expect(JSON.parse(unknown.body)).toMatchObject({ error: { code: "NOT_FOUND" } });
    });
  });
}
