import { handle, otherMethods } from "@/server/http/endpoint";
import { evalLoopBoard } from "@/server/http/endpoints/eval";

export const GET = handle(evalLoopBoard);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
