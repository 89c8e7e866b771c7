import { handle, otherMethods } from "@/server/http/endpoint";
import { evalReviewProgress } from "@/server/http/endpoints/eval";

export const GET = handle(evalReviewProgress);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
