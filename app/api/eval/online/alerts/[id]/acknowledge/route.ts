import { handle, otherMethods } from "@/server/http/endpoint";
import { evalAcknowledgeAlert } from "@/server/http/endpoints/eval";

export const POST = handle(evalAcknowledgeAlert);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
