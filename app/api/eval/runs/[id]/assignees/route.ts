import { handle, otherMethods } from "@/server/http/endpoint";
import { evalPutAssignees } from "@/server/http/endpoints/eval";

export const PUT = handle(evalPutAssignees);
export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods(["PUT"]);
