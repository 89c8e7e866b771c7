import { handle, otherMethods } from "@/server/http/endpoint";
import { evalStartRun } from "@/server/http/endpoints/eval";

export const POST = handle(evalStartRun);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
