import { handle, otherMethods } from "@/server/http/endpoint";
import { evalCreateBadCase } from "@/server/http/endpoints/eval";

export const POST = handle(evalCreateBadCase);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
