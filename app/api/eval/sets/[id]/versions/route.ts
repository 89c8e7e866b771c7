import { handle, otherMethods } from "@/server/http/endpoint";
import { evalCreateVersion } from "@/server/http/endpoints/eval";

export const POST = handle(evalCreateVersion);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
