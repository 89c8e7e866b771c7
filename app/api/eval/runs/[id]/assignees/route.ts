import { handle, otherMethods } from "@/server/http/endpoint";
import { evalGetAssignees, evalPutAssignees } from "@/server/http/endpoints/eval";

export const GET = handle(evalGetAssignees);
export const PUT = handle(evalPutAssignees);
export const { POST, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "PUT"]);
