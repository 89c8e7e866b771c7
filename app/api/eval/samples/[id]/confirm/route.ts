import { handle, otherMethods } from "@/server/http/endpoint";
import { evalConfirmSample, evalUnconfirmSample } from "@/server/http/endpoints/eval";

export const POST = handle(evalConfirmSample);
export const DELETE = handle(evalUnconfirmSample);
export const { GET, PUT, PATCH, OPTIONS } = otherMethods(["POST", "DELETE"]);
