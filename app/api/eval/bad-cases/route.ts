import { handle, otherMethods } from "@/server/http/endpoint";
import { evalListBadCases } from "@/server/http/endpoints/eval";

export const GET = handle(evalListBadCases);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
