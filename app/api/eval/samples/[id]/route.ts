import { handle, otherMethods } from "@/server/http/endpoint";
import { evalDeleteSample, evalGetSample, evalUpdateSample } from "@/server/http/endpoints/eval";

export const GET = handle(evalGetSample);
export const PATCH = handle(evalUpdateSample);
export const DELETE = handle(evalDeleteSample);
export const { POST, PUT, OPTIONS } = otherMethods(["GET", "PATCH", "DELETE"]);
