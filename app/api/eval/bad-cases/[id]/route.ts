import { handle, otherMethods } from "@/server/http/endpoint";
import { evalGetBadCase, evalUpdateBadCase } from "@/server/http/endpoints/eval";

export const GET = handle(evalGetBadCase);
export const PATCH = handle(evalUpdateBadCase);
export const { POST, PUT, DELETE, OPTIONS } = otherMethods(["GET", "PATCH"]);
