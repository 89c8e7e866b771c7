/**
 * `npm run mcp`: the Flowbench builder MCP tools over stdio, for MCP clients that launch a command.
 * It talks to a running Flowbench over REST: FLOWBENCH_URL (default http://localhost:3000) and FLOWBENCH_TOKEN.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { FlowbenchClient } from "../sdk/typescript";
import { createBuilderMcpServer } from "../server/mcp/tools";

const client = new FlowbenchClient();
const server = createBuilderMcpServer({
  listNodeTypes: () => client.listNodeTypes(),
  validate: (workflow, kind) => client.validateWorkflow(workflow, kind),
});
await server.connect(new StdioServerTransport());
