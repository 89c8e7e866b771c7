import { handle, otherMethods } from "@/server/http/endpoint";
import { agentTestRun } from "@/server/http/endpoints/runtime";

export const POST = handle(agentTestRun);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
