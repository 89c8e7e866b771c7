import { handle, otherMethods } from "@/server/http/endpoint";
import { evalAdjudicate } from "@/server/http/endpoints/eval";

export const PUT = handle(evalAdjudicate);
export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods(["PUT"]);
