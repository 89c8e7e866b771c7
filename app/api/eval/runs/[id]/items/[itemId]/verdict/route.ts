import { handle, otherMethods } from "@/server/http/endpoint";
import { evalSetVerdict } from "@/server/http/endpoints/eval";

export const PUT = handle(evalSetVerdict);
export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods(["PUT"]);
