import { handle, otherMethods } from "@/server/http/endpoint";
import { evalGetShadow, evalPutShadow } from "@/server/http/endpoints/eval";

export const GET = handle(evalGetShadow);
export const PUT = handle(evalPutShadow);
export const { POST, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "PUT"]);
