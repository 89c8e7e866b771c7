import { Client } from "@modelcontextprotocol/sdk/client/index.js";
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
  it("publishes the workflow's JSON Schema with one node variant per type, and still answers a bad config with findings", async () => {
    const client = await connect();
    const tool = (await client.listTools()).tools.find((t) => t.name === "builder_validate")!;
    const nodes = (
      tool.inputSchema.properties as {
        workflow: {
          properties: {
            nodes: {
              items: { oneOf: Array<{ properties: { type: { const: string }; config: { properties: object } } }> };
            };
          };
        };
      }
    ).workflow.properties.nodes;
    expect(nodes.items.oneOf.map((v) => v.properties.type.const)).toEqual([...NODE_TYPES]);
    expect(
      Object.keys(nodes.items.oneOf.find((v) => v.properties.type.const === "http")!.properties.config.properties),
    ).toEqual(expect.arrayContaining(["url", "method", "headers", "timeout"]));
    // the schema documents; the validator decides: a config the schema would refuse is answered with findings
    const bad = structuredClone(RECIPES.minimal.workflow) as { nodes: Array<{ config: Record<string, unknown> }> };
    bad.nodes[1]!.config.temperature = 5;
    const result = await client.callTool({ name: "builder_validate", arguments: { workflow: bad } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      valid: false,
      errors: [expect.objectContaining({ code: "NODE_CONFIG_INVALID" })],
    });
    await client.close();
  });
});
