import { spawn, spawnSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { FlowbenchClient, FlowbenchError } from "@/sdk/typescript";
import { api, describeServerIndependent, minimalWorkflow, shapeServers } from "./client";
import { ROOT } from "../../scripts/lib/app-server";

function invalidWorkflow() {
  const wf = minimalWorkflow();
  delete (wf.nodes[1]!.config as Record<string, unknown>).userPrompt;
  return wf;
}

/**
 * Runs a Python script with the SDK on its path, without blocking this process: a spawnSync of several seconds kept
 * the test's HTTP client from seeing the server close an idle keep-alive connection, and the next POST then failed
 * with "other side closed".
 */
function runPython(script: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("python3", ["-c", script, ...args], {
      env: { ...process.env, PYTHONPATH: path.join(ROOT, "sdk", "python") },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", () => resolve({ stdout, stderr }));
  });
}

/**
 * A local HTTP server that misbehaves the ways a proxy or a broken deployment does: HTML with 200, JSON of the wrong
 * shape, a validate answer that is no validation result, an HTML 502, a body that breaks off. `seen` lists requests.
 */
async function misbehavingServer(): Promise<{ base: string; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url} `);
    req.resume();
    const url = req.url ?? "";
    if (url.startsWith("/api/builder/node-types")) {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>Welcome to the proxy</body></html>");
    } else if (url.startsWith("/api/builder/recipes/")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"unexpected":true}');
    } else if (url.startsWith("/api/builder/validate")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
    } else if (url.includes("/versions")) {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body>502 Bad Gateway</body></html>");
    } else if (url.startsWith("/api/broken-body")) {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"nodeTypes":[');
      setTimeout(() => res.destroy(), 20);
    } else {
      res.writeHead(404, { "content-type": "application/json" });
      res.end('{"error":{"code":"NOT_FOUND","message":"no","details":[]}}');
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

describeServerIndependent("SDK failure modes (a misbehaving server, no Flowbench needed)", () => {
  it("TypeScript SDK: an answer whose body breaks off or stalls is a FlowbenchError (RESPONSE_INCOMPLETE / TIMEOUT), not a TypeError", async () => {
    const broken = http.createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"nodeTypes":[');
      if (req.url?.includes("node-types")) setTimeout(() => res.destroy(), 20); // reset mid-body; the other path stalls
    });
    await new Promise<void>((r) => broken.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
    try {
      const reset = await new FlowbenchClient({ baseUrl: base, token: "x" }).listNodeTypes().catch((e: unknown) => e);
      expect(reset).toBeInstanceOf(FlowbenchError);
      expect(reset).toMatchObject({
        status: 200,
        code: "RESPONSE_INCOMPLETE",
        message: expect.stringContaining(`${base}/api/builder/node-types`),
      });
      const stalled = await new FlowbenchClient({ baseUrl: base, token: "x", timeoutMs: 300 })
        .getRecipe("minimal")
        .catch((e: unknown) => e);
      expect(stalled).toBeInstanceOf(FlowbenchError);
      expect(stalled).toMatchObject({ status: 200, code: "TIMEOUT" });
    } finally {
      broken.closeAllConnections();
      await new Promise((r) => broken.close(r));
    }
  });

  it("TypeScript SDK: HTML or a wrongly shaped 2xx, a non-result from validate and unserialisable arguments are errors with their own codes and true statuses", async () => {
    const { base, seen, close } = await misbehavingServer();
    try {
      const client = new FlowbenchClient({ baseUrl: base, token: "x" });
      const caught = async (p: Promise<unknown>) => {
        const e = await p.then(
          () => null,
          (x: unknown) => x,
        );
        expect(e).toBeInstanceOf(FlowbenchError);
        return { status: (e as FlowbenchError).status, code: (e as FlowbenchError).code };
      };
      expect(await caught(client.listNodeTypes())).toEqual({ status: 200, code: "UNEXPECTED_RESPONSE" }); // HTML
      expect(await caught(client.getRecipe("minimal"))).toEqual({ status: 200, code: "UNEXPECTED_RESPONSE" }); // { unexpected }
      expect(await caught(client.validateWorkflow(minimalWorkflow()))).toEqual({
        status: 200,
        code: "UNEXPECTED_RESPONSE",
      }); // a 200 that is not a validation result (was reported as 400)
      expect(await caught(client.addVersion("a1", { workflow: minimalWorkflow() }))).toEqual({
        status: 502,
        code: "HTTP_502",
      }); // a proxy's HTML error page
      expect(await caught(client.createAgent({ name: "big", workflow: { n: 10n } }))).toEqual({
        status: 0,
        code: "REQUEST_NOT_SERIALIZABLE",
      }); // a BigInt (was CONNECTION_FAILED)
      expect(seen.filter((r) => r.startsWith("POST /api/builder/agents "))).toEqual([]); // nothing was sent
      expect(await caught(client.request("GET", "/api/broken-body"))).toEqual({
        status: 200,
        code: "RESPONSE_INCOMPLETE",
      });
    } finally {
      await close();
    }
  });

  it("Python SDK: a body that breaks off, HTML or a wrongly shaped 2xx and a non-result from validate are FlowbenchErrors with their own codes", async () => {
    const { base, close } = await misbehavingServer();
    const script = `
import json, sys
from flowbench import Client, FlowbenchError
c = Client(sys.argv[1], token="x")
out = {}
calls = {
    "broken": lambda: c.request("GET", "/api/broken-body"),
    "html": lambda: c.list_node_types(),
    "shape": lambda: c.get_recipe("minimal"),
    "validate": lambda: c.validate_workflow({"nodes": [], "edges": []}),
    "proxy": lambda: c.add_version("a1", {"nodes": [], "edges": []}),
}
for name, call in calls.items():
    try:
        call()
        out[name] = None
    except FlowbenchError as e:
        out[name] = [e.status, e.code]
    except Exception as e:
        out[name] = ["raw", type(e).__name__]
print(json.dumps(out))
`;
    try {
      const r = await runPython(script, [base]);
      expect(r.stderr).toBe("");
      expect(JSON.parse(r.stdout)).toEqual({
        broken: [200, "RESPONSE_INCOMPLETE"], // was a raw http.client.IncompleteRead
        html: [200, "UNEXPECTED_RESPONSE"],
        shape: [200, "UNEXPECTED_RESPONSE"],
        validate: [200, "UNEXPECTED_RESPONSE"],
        proxy: [502, "HTTP_502"],
      });
    } finally {
      await close();
    }
  });

  it("Python SDK: a connect that times out is TIMEOUT (it was CONNECTION_FAILED)", () => {
    // a listening socket whose backlog is full: the kernel drops further connection attempts, so connect() hangs
    const script = `
import json, socket, time
from flowbench import Client, FlowbenchError
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(0)
port = s.getsockname()[1]
held = []
for _ in range(3):
    c = socket.socket(); c.setblocking(False)
    try:
        c.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    held.append(c)
time.sleep(0.2)
try:
    Client(f"http://127.0.0.1:{port}", token="x", timeout=0.5).list_node_types()
    print(json.dumps(None))
except FlowbenchError as e:
    print(json.dumps([e.status, e.code, "/api/builder/node-types" in e.message]))
`;
    const r = spawnSync("python3", ["-c", script], {
      env: { ...process.env, PYTHONPATH: path.join(ROOT, "sdk", "python") },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual([0, "TIMEOUT", true]);
  });
});

for (const server of shapeServers()) {
  describe(`SDKs and MCP on ${server.name}`, () => {
    it("TypeScript SDK: list_node_types, validate_workflow (valid and invalid), provisioning errors carry codes", async () => {
      const client = new FlowbenchClient({ baseUrl: server.url, token: server.adminToken });
      expect((await client.list_node_types()).nodeTypes).toHaveLength(8);
      expect(await client.validate_workflow(minimalWorkflow())).toMatchObject({ valid: true, errors: [] });
      const bad = await client.validateWorkflow(invalidWorkflow());
      expect(bad.valid).toBe(false);
      expect(bad.errors[0]).toMatchObject({ code: "NODE_CONFIG_MISSING_REQUIRED", path: "/workflow/nodes/1/config" });
      const err = await client.createAgent({ name: "x", workflow: invalidWorkflow() }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FlowbenchError);
      expect(err).toMatchObject({ status: 400, code: "WORKFLOW_INVALID" });
      const unauth = await new FlowbenchClient({ baseUrl: server.url, token: "fb_wrong" })
        .listNodeTypes()
        .catch((e: unknown) => e);
      expect(unauth).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
      // a 400 that is not a validation result keeps the server's code and message
      const nul = await client.validateWorkflow({ nodes: [{ id: "a\u0000" }], edges: [] }).catch((e: unknown) => e);
      expect(nul).toMatchObject({ status: 400, code: "REQUEST_INVALID", message: expect.stringContaining("NUL") });
      // a server that cannot be reached is the SDK's own error, naming the URL
      const down = await new FlowbenchClient({ baseUrl: "http://127.0.0.1:9", token: "x" })
        .listNodeTypes()
        .catch((e: unknown) => e);
      expect(down).toBeInstanceOf(FlowbenchError);
      expect(down).toMatchObject({
        status: 0,
        code: "CONNECTION_FAILED",
        message: expect.stringContaining("http://127.0.0.1:9/api/builder/node-types"),
      });
    });

    it("Python SDK: client.list_node_types() and client.validate_workflow(workflow_dict)", async () => {
      const script = `
import json, sys
from flowbench import Client, FlowbenchError
c = Client(sys.argv[1], token=sys.argv[2])
types = c.list_node_types()
ok = c.validate_workflow(json.loads(sys.argv[3]))
bad = c.validate_workflow(json.loads(sys.argv[4]))
try:
    Client(sys.argv[1], token="fb_wrong").list_node_types()
    unauth = None
except FlowbenchError as e:
    unauth = [e.status, e.code]
try:
    c.validate_workflow({"nodes": [], "edges": [], "weight": float("nan")})  # json.dumps writes NaN: not JSON
    nan = None
except FlowbenchError as e:
    nan = [e.status, e.code]
try:
    Client("http://127.0.0.1:9", token="x").list_node_types()
    down = None
except FlowbenchError as e:
    down = [e.status, e.code, "http://127.0.0.1:9/api/builder/node-types" in e.message]
print(json.dumps({"types": [t["type"] for t in types["nodeTypes"]], "ok": ok["valid"], "bad": bad["errors"][0]["code"], "badPath": bad["errors"][0]["path"], "unauth": unauth, "nan": nan, "down": down}))
`;
      const r = await runPython(script, [
        server.url,
        server.adminToken,
        JSON.stringify(minimalWorkflow()),
        JSON.stringify(invalidWorkflow()),
      ]);
      expect(r.stderr).toBe("");
      const out = JSON.parse(r.stdout);
      expect(out).toEqual({
        types: ["start", "end", "llm", "http", "condition", "code", "memory_load", "memory_save"],
        ok: true,
        bad: "NODE_CONFIG_MISSING_REQUIRED",
        badPath: "/workflow/nodes/1/config",
        unauth: [401, "UNAUTHORIZED"],
        nan: [400, "INVALID_JSON"],
        down: [0, "CONNECTION_FAILED", true],
      });
    });

    it("MCP over HTTP refuses a JSON-RPC batch (protocol 2025-11-25 has none) with 400 -32600, unless the client declares 2025-03-26", async () => {
      const batch = [
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
      ];
      const accept = "application/json, text/event-stream";
      for (const version of [undefined, "2025-11-25", "2025-06-18"]) {
        const res = await api(server, "POST", "/api/mcp", {
          body: batch,
          headers: { accept, ...(version ? { "mcp-protocol-version": version } : {}) },
        });
        expect(res.status, String(version)).toBe(400);
        expect(res.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 }, id: null });
      }
      const one = await api(server, "POST", "/api/mcp", {
        body: batch[0],
        headers: { accept, "mcp-protocol-version": "2025-11-25" },
      });
      expect(one.status).toBe(200);
      const old = await api(server, "POST", "/api/mcp", {
        body: batch,
        headers: { accept, "mcp-protocol-version": "2025-03-26" },
      });
      expect(old.status).toBe(200);
      expect(old.body).toHaveLength(2);
    });

    it("MCP over HTTP refuses a request without the Streamable HTTP Accept header with a documented 406", async () => {
      const res = await api(server, "POST", "/api/mcp", {
        body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
        headers: { accept: "application/json" },
      });
      expect(res.status).toBe(406);
      expect(res.body).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringContaining("Accept") } });
    });

    it("MCP over HTTP (/api/mcp) with a bearer token: builder_list_node_types and builder_validate", async () => {
      const client = new Client({ name: "it", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${server.adminToken}` } },
        }),
      );
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(["builder_list_node_types", "builder_validate"]);
      const types = await client.callTool({ name: "builder_list_node_types", arguments: {} });
      expect((types.structuredContent as { nodeTypes: unknown[] }).nodeTypes).toHaveLength(8);
      const bad = await client.callTool({ name: "builder_validate", arguments: { workflow: invalidWorkflow() } });
      expect(bad.structuredContent).toMatchObject({
        valid: false,
        errors: [expect.objectContaining({ code: "NODE_CONFIG_MISSING_REQUIRED", path: "/workflow/nodes/1/config" })],
      });
      await client.close();

      const res = await fetch(`${server.url}/api/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(401);
    });

    it("MCP over stdio (npm run mcp) against the running server", async () => {
      const client = new Client({ name: "it", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: path.join(ROOT, "node_modules", ".bin", "tsx"),
          args: [path.join(ROOT, "scripts", "mcp-stdio.ts")],
          env: {
            ...(process.env as Record<string, string>),
            FLOWBENCH_URL: server.url,
            FLOWBENCH_TOKEN: server.adminToken,
          },
          cwd: ROOT,
        }),
      );
      const ok = await client.callTool({ name: "builder_validate", arguments: { workflow: minimalWorkflow() } });
      expect(ok.structuredContent).toMatchObject({ valid: true });
      await client.close();
    });
  });
}
