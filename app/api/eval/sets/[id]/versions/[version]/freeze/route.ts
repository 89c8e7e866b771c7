import { handle, otherMethods } from "@/server/http/endpoint";
import { evalFreezeVersion } from "@/server/http/endpoints/eval";

export const POST = handle(evalFreezeVersion);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
