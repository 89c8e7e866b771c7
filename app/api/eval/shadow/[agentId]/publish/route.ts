import { handle, otherMethods } from "@/server/http/endpoint";
import { evalPublishShadowCandidate } from "@/server/http/endpoints/eval";

export const POST = handle(evalPublishShadowCandidate);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
