import { handle, otherMethods } from "@/server/http/endpoint";
import { evalCreateRunBadCases } from "@/server/http/endpoints/eval";

export const POST = handle(evalCreateRunBadCases);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
