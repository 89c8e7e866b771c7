import { handle, otherMethods } from "@/server/http/endpoint";
import { evalCancelRun } from "@/server/http/endpoints/eval";

export const POST = handle(evalCancelRun);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
