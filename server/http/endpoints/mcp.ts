import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { env } from "../../core/env";
import { defineEndpoint } from "../endpoint";
import { ErrorOut } from "../../core/errors";
import { nodeTypesSummary, validateWorkflowRequest } from "../../workflow";
import { createBuilderMcpServer } from "../../mcp/tools";

/**
 * MCP over Streamable HTTP (stateless: a fresh server per request), for MCP clients that connect to a running
 * Flowbench directly with a bearer token. The same tools are served over stdio by `npm run mcp`.
 */
export const mcp = defineEndpoint({
  method: "POST",
  path: "/api/mcp",
  operationId: "mcp",
  summary: "MCP endpoint (Streamable HTTP): tools builder_list_node_types and builder_validate",
  description: "JSON-RPC 2.0 messages of the Model Context Protocol. Stateless: no session id; every request is answered on its own.",
  tag: "Workflow builder",
  auth: "token",
  permission: "builder.read",
  responses: { 200: { description: "JSON-RPC response" }, 401: { description: "Missing or invalid token", schema: ErrorOut } },
  handler: async ({ request }) => {
    const server = createBuilderMcpServer({
      listNodeTypes: async () => nodeTypesSummary(),
      validate: async (workflow) => validateWorkflowRequest({ workflow }, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      void server.close();
    }
  },
});
