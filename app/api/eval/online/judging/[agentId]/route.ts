import { handle, otherMethods } from "@/server/http/endpoint";
import { evalGetOnlineJudging, evalPutOnlineJudging } from "@/server/http/endpoints/eval";

export const GET = handle(evalGetOnlineJudging);
export const PUT = handle(evalPutOnlineJudging);
export const { POST, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "PUT"]);
