/**
 * A local "webhook" HTTP server for runtime tests, the integration setup and benchmarks: it stands in for the
 * owner's API (the sample app's dishes) and for hostile answers (redirects, huge and slow bodies). It counts every
 * request, so a test can prove that a run made none. Not part of the public API.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import type { Workflow } from "../workflow";
import type { RuntimeDeps, SandboxRunner } from "./nodes/context";
import type { ExecuteOptions } from "./types";

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
      if (url.pathname === "/echo-text" || url.pathname.startsWith("/echo-text/")) {
        // the request as text (request line, header lines, body): an API that echoes credentials in plain text
        const lines = [`${req.method} ${req.url} HTTP/1.1`];
        for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
        return res.end(`${lines.join("\n")}\n\n${body}`);
      }
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

/* ---------------------------------------------------------------------------------------------------------------
 * The runtime tests' harness (executor.test.ts, input.test.ts, nodes/*.test.ts): an in-memory database with one
 * agent, a webhook server and a fake OpenAI-compatible model, and `run()` that executes a workflow with explicit
 * dependencies (`deps()`: the offline model, the webhook server as the only allowed origin, a fake sandbox).
 * The database and model modules are imported lazily so the integration setup and benchmarks that import this file
 * for `startWebhookServer` do not load them.
 * ------------------------------------------------------------------------------------------------------------- */

/** A workflow from compact node and edge lists (positions filled in). */
export function wf(
  nodes: Array<{ id: string; type: string; config?: Record<string, unknown> }>,
  edges: Array<[string, string] | [string, string, "true" | "false"]>,
): Workflow {
  return {
    nodes: nodes.map((n, i) => ({ id: n.id, type: n.type, config: n.config ?? {}, position: { x: i * 100, y: 0 } })),
    edges: edges.map(([source, target, condition]) => (condition ? { source, target, condition } : { source, target })),
  } as Workflow;
}

/** A start node; by default one required string output `query`. */
export const start = (
  outputs: Array<Record<string, unknown>> = [{ name: "query", type: "string", required: true, default: "" }],
  variables?: Record<string, unknown>,
) => ({ id: "start", type: "start", config: variables ? { outputs, variables } : { outputs } });

/** start -> llm -> end. */
export const minimal = () =>
  wf(
    [
      start(),
      { id: "llm_1", type: "llm", config: { systemPrompt: "You are helpful.", userPrompt: "{{start.query}}" } },
      { id: "end", type: "end", config: { output: "{{llm_1.result}}" } },
    ],
    [
      ["start", "llm_1"],
      ["llm_1", "end"],
    ],
  );

/** A sandbox stand-in: upper-cases `inputs.text`, lists the input keys, and raises PYTHON_ERROR for code with `raise`. */
export const fakeSandbox: SandboxRunner = {
  async run({ code, inputs }) {
    if (code.includes("raise"))
      throw Object.assign(new Error("ValueError: boom"), { name: "SandboxError", code: "PYTHON_ERROR" });
    return {
      result: { upper: String(inputs.text ?? "").toUpperCase(), keys: Object.keys(inputs) },
      stdout: "printed\n",
      stderr: "",
      durationMs: 1,
    };
  },
};

/** Aborts once `ready()` holds (a request reached the fake server), so a test does not bet on how fast a busy machine gets there; resolves with the moment it aborted. */
export async function abortWhen(controller: AbortController, ready: () => boolean): Promise<number> {
  for (const until = Date.now() + 20_000; !ready() && Date.now() < until; ) await new Promise((r) => setTimeout(r, 5));
  controller.abort();
  return Date.now();
}

export type RunHarness = Awaited<ReturnType<typeof createRunHarness>>;

export async function createRunHarness() {
  const [{ createTestDb }, { createOfflineProvider }, { startFakeLlmServer }, { runWorkflow }, http, policy] =
    await Promise.all([
      import("../db/test-db"),
      import("../llm"),
      import("../llm/testing"),
      import("./executor"),
      import("./http/client"),
      import("./http/policy"),
    ]);
  const { db, close: closeDb } = await createTestDb();
  const hook = await startWebhookServer();
  const llm = await startFakeLlmServer();
  const agentId = (await db.agent.create({ data: { name: "runtime test agent" } })).id;
  const deps = (over: Partial<RuntimeDeps> = {}, allowed?: string): RuntimeDeps => ({
    llm: createOfflineProvider(),
    http: {
      webhookBaseUrl: hook.origin,
      policy: {
        rules: policy.originRules(hook.origin, allowed),
        resolver: http.defaultResolver,
        ...http.HTTP_LIMITS,
      },
    },
    sandbox: async () => fakeSandbox,
    ...over,
  });
  const run = (
    workflow: Workflow,
    input: Record<string, unknown>,
    extra: Partial<ExecuteOptions> = {},
    d: RuntimeDeps = deps(),
  ) => runWorkflow(db, { workflow, input, mode: "pipeline_live", source: "test_run", agentId, ...extra }, d);
  const close = async () => {
    await hook.close();
    await llm.close();
    await closeDb();
  };
  return { db, hook, llm, agentId, deps, run, close };
}
