import { handle, otherMethods } from "@/server/http/endpoint";
import { tracesFeedback } from "@/server/http/endpoints/runtime";

export const POST = handle(tracesFeedback);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
