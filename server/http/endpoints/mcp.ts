import { z } from "zod";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { env } from "../../core/env";
import { defineEndpoint } from "../endpoint";
import { ErrorOut } from "../../core/errors";
import { nodeTypesSummary, validateWorkflowRequest } from "../../workflow";
import { createBuilderMcpServer } from "../../mcp/tools";

/** What the MCP transport answers a request it cannot take (JSON-RPC 2.0 error object). */
const JsonRpcError = z.object({
  jsonrpc: z.literal("2.0"),
  error: z.object({ code: z.int(), message: z.string() }),
  id: z.union([z.string(), z.number(), z.null()]),
});

/**
 * MCP over Streamable HTTP (stateless: a fresh server per request), for MCP clients that connect to a running
 * Flowbench directly with a bearer token. The same tools are served over stdio by `npm run mcp`.
 */
export const mcp = defineEndpoint({
  method: "POST",
  path: "/api/mcp",
  operationId: "mcp",
  summary: "MCP endpoint (Streamable HTTP): tools builder_list_node_types and builder_validate",
  description:
    "JSON-RPC 2.0 messages of the Model Context Protocol. Stateless: no session id; every request is answered on its own.",
  tag: "Workflow builder",
  auth: "token",
  permission: "builder.read",
  responses: {
    200: { description: "JSON-RPC response" },
    202: {
      description:
        "Accepted: the message held only notifications or responses (or an empty batch), which get no answer",
    },
    400: { description: "Not a JSON-RPC 2.0 message (parse error or invalid request)", schema: JsonRpcError },
    401: { description: "Missing or invalid token", schema: ErrorOut },
    406: {
      description: "The Accept header must list both application/json and text/event-stream (Streamable HTTP)",
      schema: JsonRpcError,
    },
    415: { description: "The body must be application/json", schema: JsonRpcError },
  },
  handler: async ({ request }) => {
    const server = createBuilderMcpServer({
      listNodeTypes: async () => nodeTypesSummary(),
      validate: async (workflow) => validateWorkflowRequest({ workflow }, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      void server.close();
    }
  },
});
