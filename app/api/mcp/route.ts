import { handle, otherMethods } from "@/server/http/endpoint";
import { mcp } from "@/server/http/endpoints/mcp";

export const POST = handle(mcp);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
