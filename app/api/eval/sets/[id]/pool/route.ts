import { handle, otherMethods } from "@/server/http/endpoint";
import { evalAddToPool } from "@/server/http/endpoints/eval";

export const POST = handle(evalAddToPool);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
