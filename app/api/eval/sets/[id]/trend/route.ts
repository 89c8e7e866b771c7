import { handle, otherMethods } from "@/server/http/endpoint";
import { evalSetTrend } from "@/server/http/endpoints/eval";

export const GET = handle(evalSetTrend);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
