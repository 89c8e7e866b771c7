import { spawnSync } from "node:child_process";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { FlowbenchClient, FlowbenchError } from "@/sdk/typescript";
import { minimalWorkflow, servers } from "./client";
import { ROOT } from "../../scripts/lib/app-server";

function invalidWorkflow() {
  const wf = minimalWorkflow();
  delete (wf.nodes[1]!.config as Record<string, unknown>).userPrompt;
  return wf;
}

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
      const unauth = await new FlowbenchClient({ baseUrl: server.url, token: "fb_wrong" }).listNodeTypes().catch((e: unknown) => e);
      expect(unauth).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
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
print(json.dumps({"types": [t["type"] for t in types["nodeTypes"]], "ok": ok["valid"], "bad": bad["errors"][0]["code"], "badPath": bad["errors"][0]["path"], "unauth": unauth}))
`;
      const r = spawnSync("python3", ["-c", script, server.url, server.adminToken, JSON.stringify(minimalWorkflow()), JSON.stringify(invalidWorkflow())], {
        env: { ...process.env, PYTHONPATH: path.join(ROOT, "sdk", "python") },
        encoding: "utf8",
      });
      expect(r.stderr).toBe("");
      const out = JSON.parse(r.stdout);
      expect(out).toEqual({
        types: ["start", "end", "llm", "http", "condition", "code", "memory_load", "memory_save"],
        ok: true,
        bad: "NODE_CONFIG_MISSING_REQUIRED",
        badPath: "/workflow/nodes/1/config",
        unauth: [401, "UNAUTHORIZED"],
      });
    });

    it("MCP over HTTP (/api/mcp) with a bearer token: builder_list_node_types and builder_validate", async () => {
      const client = new Client({ name: "it", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${server.adminToken}` } } }),
      );
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(["builder_list_node_types", "builder_validate"]);
      const types = await client.callTool({ name: "builder_list_node_types", arguments: {} });
      expect((types.structuredContent as { nodeTypes: unknown[] }).nodeTypes).toHaveLength(8);
      const bad = await client.callTool({ name: "builder_validate", arguments: { workflow: invalidWorkflow() } });
      expect(bad.structuredContent).toMatchObject({ valid: false, errors: [expect.objectContaining({ code: "NODE_CONFIG_MISSING_REQUIRED", path: "/workflow/nodes/1/config" })] });
      await client.close();

      const res = await fetch(`${server.url}/api/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(res.status).toBe(401);
    });

    it("MCP over stdio (npm run mcp) against the running server", async () => {
      const client = new Client({ name: "it", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: path.join(ROOT, "node_modules", ".bin", "tsx"),
          args: [path.join(ROOT, "scripts", "mcp-stdio.ts")],
          env: { ...(process.env as Record<string, string>), FLOWBENCH_URL: server.url, FLOWBENCH_TOKEN: server.adminToken },
          cwd: ROOT,
        }),
      );
      const ok = await client.callTool({ name: "builder_validate", arguments: { workflow: minimalWorkflow() } });
      expect(ok.structuredContent).toMatchObject({ valid: true });
      await client.close();
    });
  });
}
