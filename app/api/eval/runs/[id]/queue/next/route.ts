import { handle, otherMethods } from "@/server/http/endpoint";
import { evalQueueNext } from "@/server/http/endpoints/eval";

export const POST = handle(evalQueueNext);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
