import { handle, otherMethods } from "@/server/http/endpoint";
import { evalUndoVerdict } from "@/server/http/endpoints/eval";

export const POST = handle(evalUndoVerdict);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
