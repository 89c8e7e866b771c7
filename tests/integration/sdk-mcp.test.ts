import { spawnSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { FlowbenchClient, FlowbenchError } from "@/sdk/typescript";
import { api, minimalWorkflow, servers } from "./client";
import { ROOT } from "../../scripts/lib/app-server";

function invalidWorkflow() {
  const wf = minimalWorkflow();
  delete (wf.nodes[1]!.config as Record<string, unknown>).userPrompt;
  return wf;
}

describe("SDK failure modes (a misbehaving server, no Flowbench needed)", () => {
  it("TypeScript SDK: an answer whose body breaks off or stalls is a FlowbenchError (CONNECTION_FAILED / TIMEOUT), not a TypeError", async () => {
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
        code: "CONNECTION_FAILED",
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

for (const server of servers()) {
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

    it("Python SDK: client.list_node_types() and client.validate_workflow(workflow_dict)", () => {
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
      const r = spawnSync(
        "python3",
        [
          "-c",
          script,
          server.url,
          server.adminToken,
          JSON.stringify(minimalWorkflow()),
          JSON.stringify(invalidWorkflow()),
        ],
        {
          env: { ...process.env, PYTHONPATH: path.join(ROOT, "sdk", "python") },
          encoding: "utf8",
        },
      );
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
