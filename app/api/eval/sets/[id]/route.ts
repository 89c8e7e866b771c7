import { handle, otherMethods } from "@/server/http/endpoint";
import { evalDeleteSet, evalGetSet, evalUpdateSet } from "@/server/http/endpoints/eval";

export const GET = handle(evalGetSet);
export const PATCH = handle(evalUpdateSet);
export const DELETE = handle(evalDeleteSet);
export const { POST, PUT, OPTIONS } = otherMethods(["GET", "PATCH", "DELETE"]);
