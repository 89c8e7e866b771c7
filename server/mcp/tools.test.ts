import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import Ajv from "ajv";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { NODE_TYPES, RECIPES, validateWorkflowRequest } from "../workflow";
import { createBuilderMcpServer } from "./tools";

async function connect() {
  const server = createBuilderMcpServer({
    listNodeTypes: async () => ({}),
    validate: async (workflow) => validateWorkflowRequest({ workflow }),
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(clientSide);
  return client;
}

describe("MCP builder_validate", () => {
  it("declares the input it takes (any workflow value) and publishes the typed workflow in $defs; a bad config gets findings", async () => {
    const client = await connect();
    const tool = (await client.listTools()).tools.find((t) => t.name === "builder_validate")!;
    const schema = tool.inputSchema as unknown as {
      $defs: {
        Workflow: {
          properties: {
            nodes: {
              items: { oneOf: Array<{ properties: { type: { const: string }; config: { properties: object } } }> };
            };
          };
        };
      };
    };
    const nodes = schema.$defs.Workflow.properties.nodes;
    expect(nodes.items.oneOf.map((v) => v.properties.type.const)).toEqual([...NODE_TYPES]);
    expect(
      Object.keys(nodes.items.oneOf.find((v) => v.properties.type.const === "http")!.properties.config.properties),
    ).toEqual(expect.arrayContaining(["url", "method", "headers", "timeout"]));

    // a client that checks its arguments against the declared schema may send what the tool answers with findings
    const bad = structuredClone(RECIPES.minimal.workflow) as { nodes: Array<Record<string, unknown>> };
    (bad.nodes[1]!.config as Record<string, unknown>).temperature = 5;
    const unknownType = structuredClone(RECIPES.minimal.workflow) as { nodes: Array<Record<string, unknown>> };
    unknownType.nodes[1]!.type = "teleport";
    const declared = new Ajv({ strict: false }).compile(tool.inputSchema);
    for (const workflow of [bad, unknownType, { nodes: [] }, "not a workflow"]) {
      expect(declared({ workflow }), JSON.stringify(workflow).slice(0, 80)).toBe(true);
      const result = await client.callTool({ name: "builder_validate", arguments: { workflow } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ valid: false });
    }
    expect(declared({})).toBe(false); // `workflow` itself is required, by the schema and by the tool
    const result = await client.callTool({ name: "builder_validate", arguments: { workflow: bad } });
    expect(result.structuredContent).toMatchObject({
      valid: false,
      errors: [expect.objectContaining({ code: "NODE_CONFIG_INVALID" })],
    });
    const typed = await client.callTool({ name: "builder_validate", arguments: { workflow: unknownType } });
    expect(JSON.stringify(typed.structuredContent)).toContain("teleport");
    await client.close();
  });
});
