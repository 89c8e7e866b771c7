import { handle, otherMethods } from "@/server/http/endpoint";
import { evalShadowDisagreements } from "@/server/http/endpoints/eval";

export const GET = handle(evalShadowDisagreements);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
