import { handle, otherMethods } from "@/server/http/endpoint";
import { evalReleaseItem, evalReserveItem } from "@/server/http/endpoints/eval";

export const PUT = handle(evalReserveItem);
export const DELETE = handle(evalReleaseItem);
export const { GET, POST, PATCH, OPTIONS } = otherMethods(["PUT", "DELETE"]);
