import { handle, otherMethods } from "@/server/http/endpoint";
import { evalGetRun } from "@/server/http/endpoints/eval";

export const GET = handle(evalGetRun);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
