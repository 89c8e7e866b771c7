import { handle, otherMethods } from "@/server/http/endpoint";
import { evalShadowReport } from "@/server/http/endpoints/eval";

export const GET = handle(evalShadowReport);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
