import { handle, otherMethods } from "@/server/http/endpoint";
import { agentChat } from "@/server/http/endpoints/runtime";

export const POST = handle(agentChat);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
