import http from "node:http";
import { describe, expect, it } from "vitest";
import { shapeServers } from "./client";

/**
 * Request bodies are read after authentication and never past their limit (server/core/body.ts), over real HTTP:
 * a request whose headers already decide its answer (no credentials, a Content-Length over the limit) is answered
 * while its body is still unsent, and a chunked body is refused at the limit, the server closing the connection
 * instead of reading on. (Issue 28: the proxy read every API body to its end first, 512 MB in 2.9 s, and tRPC parsed
 * about 16 MB before checking the caller.)
 */
const MB = 1024 * 1024;

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: any; ms: number };

/** Sends the request line and headers only; resolves with the answer (the body is never sent) and when the server
 * closes the connection. */
function headersOnly(
  url: string,
  path: string,
  headers: Record<string, string>,
): { answer: Promise<Answer>; closed: Promise<void> } {
  const started = Date.now();
  let closedResolve!: () => void;
  const closed = new Promise<void>((r) => (closedResolve = r));
  const answer = new Promise<Answer>((resolve, reject) => {
    const req = http.request(`${url}${path}`, { method: "POST", headers, agent: false });
    req.on("response", (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ms: Date.now() - started });
      });
    });
    req.on("error", reject);
    req.on("close", closedResolve);
    req.flushHeaders(); // headers on the wire, the declared body never follows
  });
  return { answer, closed };
}

/**
 * Streams a chunked body of `total` bytes in 64 KiB chunks as fast as the server takes them, stopping when the answer
 * arrives or the connection closes: resolves with the answer (if one came) and how much had been sent by then.
 */
function chunked(
  url: string,
  path: string,
  headers: Record<string, string>,
  total: number,
): Promise<{ status: number | null; body: any; sentAtAnswer: number; sentAtEnd: number; error?: string }> {
  return new Promise((resolve) => {
    const req = http.request(`${url}${path}`, {
      method: "POST",
      headers: { ...headers, "transfer-encoding": "chunked" },
      agent: false,
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20); // spaces: valid JSON whitespace, never a complete document
    let sent = 0;
    let sentAtAnswer = -1;
    let stopped = false;
    let status: number | null = null;
    let text = "";
    let error: string | undefined;
    const finish = () => {
      if (stopped) return;
      stopped = true;
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      resolve({ status, body, sentAtAnswer: sentAtAnswer < 0 ? sent : sentAtAnswer, sentAtEnd: sent, error });
    };
    req.on("response", (res) => {
      status = res.statusCode ?? 0;
      sentAtAnswer = sent;
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", finish);
      res.on("error", finish);
    });
    req.on("error", (e) => {
      error = (e as NodeJS.ErrnoException).code ?? e.message;
      if (status === null) finish(); // else the answer's end finishes
    });
    req.on("close", () => setTimeout(finish, 200));
    const write = () => {
      while (!stopped && status === null && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", write);
          return;
        }
      }
      if (!stopped && status === null && sent >= total) req.end();
    };
    write();
  });
}

for (const server of shapeServers()) {
  describe(`request bodies on ${server.name}`, () => {
    const auth = { authorization: `Bearer ${server.adminToken}` };
    const jsonType = { "content-type": "application/json" };

    it("an unauthenticated POST declaring 512 MB is answered 401 while its body is unsent, and the connection closed (REST and tRPC)", async () => {
      for (const path of ["/api/builder/validate", "/api/eval/sets", "/api/trpc/admin.tokens.create"]) {
        const { answer, closed } = headersOnly(server.url, path, { ...jsonType, "content-length": String(512 * MB) });
        const res = await answer;
        expect(res.status, path).toBe(401);
        const code = path.startsWith("/api/trpc") ? res.body.error?.data?.appCode : res.body.error?.code;
        expect(code, path).toBe("UNAUTHORIZED");
        expect(res.headers.connection, path).toBe("close");
        expect(res.ms, path).toBeLessThan(10_000);
        await closed; // the server ends the connection rather than waiting for (and draining) 512 MB
      }
    });

    it("an authenticated POST whose Content-Length is over the limit is answered 413 at once, its body unsent", async () => {
      const rest = headersOnly(server.url, "/api/builder/validate", {
        ...auth,
        ...jsonType,
        "content-length": String(600 * MB),
      });
      const r = await rest.answer;
      expect(r.status).toBe(413);
      expect(r.body.error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: [{ limitBytes: 5 * MB }] });
      expect(r.headers.connection).toBe("close");
      await rest.closed;

      const trpc = headersOnly(server.url, "/api/trpc/admin.tokens.create", {
        ...auth,
        ...jsonType,
        "content-length": String(600 * MB),
      });
      const t = await trpc.answer;
      expect(t.status).toBe(413);
      expect(t.body.error.data).toMatchObject({ appCode: "PAYLOAD_TOO_LARGE", details: [{ limitBytes: 12 * MB }] });
      await trpc.closed;
    });

    it("a chunked body past the limit is refused with 413 and the server stops reading it (REST and tRPC)", async () => {
      const total = 256 * MB;
      for (const [path, limit] of [
        ["/api/builder/validate", 5 * MB],
        ["/api/trpc/admin.tokens.create", 12 * MB],
      ] as const) {
        const res = await chunked(server.url, path, { ...auth, ...jsonType }, total);
        expect(res.status, `${path}: ${res.error}`).toBe(413);
        const code = path.startsWith("/api/trpc") ? res.body.error?.data?.appCode : res.body.error?.code;
        expect(code, path).toBe("PAYLOAD_TOO_LARGE");
        // answered once the limit was passed (plus what socket buffers hold), not after the whole body
        expect(res.sentAtAnswer, path).toBeGreaterThan(limit);
        expect(res.sentAtAnswer, path).toBeLessThan(limit + 32 * MB);
        expect(res.sentAtEnd, path).toBeLessThan(total);
      }
    });

    it("the sign-in route (open to anyone) takes at most 64 KiB: a larger Content-Length is 413 at once, a chunked body is cut", async () => {
      const path = "/api/auth/callback/credentials";
      const form = { "content-type": "application/x-www-form-urlencoded" };
      const declared = headersOnly(server.url, path, { ...form, "content-length": String(512 * MB) });
      const r = await declared.answer;
      expect(r.status).toBe(413);
      expect(r.body.error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: [{ limitBytes: 64 * 1024 }] });
      expect(r.headers.connection).toBe("close");
      await declared.closed;
      const streamed = await chunked(server.url, path, form, 256 * MB);
      expect(streamed.status, streamed.error).toBe(413);
      expect(streamed.sentAtAnswer).toBeLessThan(32 * MB);
    });

    it("a body within the limit still arrives whole after the caller is checked (chunked too)", async () => {
      // the same validate call, as JSON of 4.5 MiB (under its 5 MiB limit): read whole, answered on its content
      const workflow = { nodes: [], edges: [], padding: "x".repeat(4.5 * MB) };
      const res = await fetch(`${server.url}/api/builder/validate`, {
        method: "POST",
        headers: { ...auth, ...jsonType },
        body: JSON.stringify({ workflow }),
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).not.toBe("PAYLOAD_TOO_LARGE");
      expect(res.headers.get("connection")).not.toBe("close");
    });
  });
}
