import { handle, otherMethods } from "@/server/http/endpoint";
import { builderDeleteAgent, builderGetAgent, builderUpdateAgent } from "@/server/http/endpoints/builder";

export const GET = handle(builderGetAgent);
export const PATCH = handle(builderUpdateAgent);
export const DELETE = handle(builderDeleteAgent);
export const { POST, PUT, OPTIONS } = otherMethods(["GET", "PATCH", "DELETE"]);
