import { z } from "zod";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { env } from "../../core/env";
import { defineEndpoint, json } from "../endpoint";
import { ErrorOut } from "../../core/errors";
import { nodeTypesSummary, validateWorkflowRequest, WORKFLOW_LIMITS } from "../../workflow";
import { createBuilderMcpServer } from "../../mcp/tools";

/** What the MCP transport answers a request it cannot take (JSON-RPC 2.0 error object). */
const JsonRpcError = z.object({
  jsonrpc: z.literal("2.0"),
  error: z.object({ code: z.int(), message: z.string() }),
  id: z.union([z.string(), z.number(), z.null()]),
});

/**
 * MCP versions whose Streamable HTTP transport allowed JSON-RPC batches: 2025-03-26 only (2025-06-18 removed them;
 * 2025-11-25, the version this server speaks, has none). A client names its version in MCP-Protocol-Version.
 */
const BATCH_VERSIONS = new Set(["2025-03-26"]);

/** A JSON-RPC batch from a client that has not declared a version with batching: 400, -32600 Invalid Request. */
async function refuseBatch(request: Request): Promise<Response | null> {
  const version = request.headers.get("mcp-protocol-version");
  if (version && BATCH_VERSIONS.has(version)) return null;
  const text = await request.clone().text();
  if (!text.trimStart().startsWith("[")) return null;
  try {
    if (!Array.isArray(JSON.parse(text))) return null;
  } catch {
    return null; // not JSON: the transport answers its parse error
  }
  return json(400, {
    jsonrpc: "2.0",
    error: {
      code: -32600,
      message: `Invalid Request: JSON-RPC batches are not part of MCP ${version ?? LATEST_PROTOCOL_VERSION}; send one message per request`,
    },
    id: null,
  });
}

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
    "JSON-RPC 2.0 messages of the Model Context Protocol (2025-11-25; older supported versions are negotiated by `initialize`). Stateless: no session id; every request is answered on its own. One message per request: a JSON-RPC batch (an array) is 400 with error -32600, unless the client declares `MCP-Protocol-Version: 2025-03-26`, the one version whose Streamable HTTP had batches.",
  tag: "Workflow builder",
  auth: "token",
  permission: "builder.read",
  maxBodyBytes: WORKFLOW_LIMITS.maxBodyBytes, // builder_validate takes a workflow, as POST /api/builder/validate does
  responses: {
    200: { description: "JSON-RPC response" },
    202: {
      description: "Accepted: the message was a notification or a response, which gets no answer",
    },
    400: {
      description: "Not one JSON-RPC 2.0 message (parse error, invalid request, or a batch: -32600)",
      schema: JsonRpcError,
    },
    401: { description: "Missing or invalid token", schema: ErrorOut },
    406: {
      description: "The Accept header must list both application/json and text/event-stream (Streamable HTTP)",
      schema: JsonRpcError,
    },
    413: { description: "PAYLOAD_TOO_LARGE: the body exceeds the limit of a workflow request", schema: ErrorOut },
    415: { description: "The body must be application/json", schema: JsonRpcError },
  },
  handler: async ({ request }) => {
    const refused = await refuseBatch(request);
    if (refused) return refused;
    const server = createBuilderMcpServer({
      listNodeTypes: async () => nodeTypesSummary(),
      validate: async (workflow, kind) =>
        validateWorkflowRequest({ workflow, kind }, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
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
