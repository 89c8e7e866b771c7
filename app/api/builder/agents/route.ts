import { handle, otherMethods } from "@/server/http/endpoint";
import { builderCreateAgent, builderListAgents } from "@/server/http/endpoints/builder";

export const GET = handle(builderListAgents);
export const POST = handle(builderCreateAgent);
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
