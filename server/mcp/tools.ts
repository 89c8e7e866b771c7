import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { ValidationResultSchema, WORKFLOW_JSON_SCHEMA } from "../workflow";

/** What builder_list_node_types returns as structuredContent (its top level; each part is described in the text). */
const NodeTypesOutput = {
  version: z.string(),
  templateSyntax: z.object({ pattern: z.string(), description: z.string(), examples: z.array(z.string()) }),
  expressionSyntax: z.object({ language: z.string(), description: z.string(), examples: z.array(z.string()) }),
  nodeTypes: z.array(z.object({ type: z.string() }).passthrough()),
  recipes: z.array(z.string()),
  limits: z.record(z.string(), z.number()),
  findingCodes: z.record(z.string(), z.object({ severity: z.string(), description: z.string() }).passthrough()),
};

/**
 * builder_validate's input as the tool takes it: `workflow` may be any JSON value (an unknown node type, a temperature
 * out of range, a missing field: each is answered with findings, never refused), so a client that checks arguments
 * against the declared schema before sending can ask about any workflow. The typed shape a valid workflow has (each
 * node `oneOf` by `type` with that type's config schema) is published beside it as `$defs.Workflow`.
 */
const ValidateInput = z
  .object({
    workflow: z.unknown().meta({
      description:
        "The workflow to check: { nodes: [...], edges: [...] }. Any JSON value is accepted and answered with findings; a valid workflow has the shape of #/$defs/Workflow.",
    }),
    kind: z.enum(["agent", "judge"]).optional().meta({
      description:
        "agent (default) or judge: a judge's workflow must also follow the judge contract (start inputs question, expected_points, answer; the end outputs the judge answer JSON)",
    }),
  })
  .meta({ $defs: { Workflow: WORKFLOW_JSON_SCHEMA } });

/** What the builder tools need; the in-app endpoint calls the services, the stdio server calls REST via the SDK. */
export type BuilderToolsApi = {
  listNodeTypes(): Promise<unknown>;
  validate(
    workflow: unknown,
    kind?: "agent" | "judge",
  ): Promise<{ valid: boolean; errors: Array<{ code: string; message: string; path: string }>; warnings: unknown[] }>;
};

function summary(result: Awaited<ReturnType<BuilderToolsApi["validate"]>>): string {
  if (result.valid) return `valid (${result.warnings.length} warning${result.warnings.length === 1 ? "" : "s"})`;
  const lines = result.errors.slice(0, 20).map((e) => `- ${e.code} at ${e.path}: ${e.message}`);
  return [`invalid: ${result.errors.length} error(s)`, ...lines, result.errors.length > 20 ? "- …" : ""]
    .filter(Boolean)
    .join("\n");
}

/** The spec's MCP tools `builder_list_node_types` and `builder_validate`, defined once for both transports. */
export function createBuilderMcpServer(api: BuilderToolsApi): McpServer {
  const server = new McpServer({ name: "flowbench-builder", version: "0.1.0" });
  server.registerTool(
    "builder_list_node_types",
    {
      title: "List workflow node types",
      description:
        "The Flowbench node-type contract: for each of the 8 node types its required config (any-of groups), optional keys with types and ranges, JSON Schema, output fields, ports and an example; plus the {{node.field}} template syntax, recipes and limits.",
      outputSchema: NodeTypesOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async () => {
      const types = await api.listNodeTypes();
      return {
        content: [{ type: "text", text: JSON.stringify(types) }],
        structuredContent: types as Record<string, unknown>,
      };
    },
  );
  server.registerTool(
    "builder_validate",
    {
      title: "Validate a workflow",
      description:
        "Validates a workflow graph {nodes, edges} without storing it (kind judge: also against the judge contract). Returns { valid, errors, warnings }; every finding has a stable code and a JSON-pointer path into { workflow }.",
      inputSchema: ValidateInput,
      outputSchema: ValidationResultSchema.shape,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ workflow, kind }) => {
      const result = await api.validate(workflow, kind);
      return {
        content: [{ type: "text", text: `${summary(result)}\n\n${JSON.stringify(result)}` }],
        structuredContent: result,
      };
    },
  );
  return server;
}
