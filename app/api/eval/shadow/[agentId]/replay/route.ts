import { handle, otherMethods } from "@/server/http/endpoint";
import { evalReplayShadow } from "@/server/http/endpoints/eval";

export const POST = handle(evalReplayShadow);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
