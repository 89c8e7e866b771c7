import { handle, otherMethods } from "@/server/http/endpoint";
import { evalDeleteVersion, evalGetVersion, evalUpdateVersion } from "@/server/http/endpoints/eval";

export const GET = handle(evalGetVersion);
export const PATCH = handle(evalUpdateVersion);
export const DELETE = handle(evalDeleteVersion);
export const { POST, PUT, OPTIONS } = otherMethods(["GET", "PATCH", "DELETE"]);
