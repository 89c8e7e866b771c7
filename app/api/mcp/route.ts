import { handle } from "@/server/http/endpoint";
import { mcp } from "@/server/http/endpoints/mcp";

export const POST = handle(mcp);
