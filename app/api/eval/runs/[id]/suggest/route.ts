import { handle, otherMethods } from "@/server/http/endpoint";
import { evalResuggest } from "@/server/http/endpoints/eval";

export const POST = handle(evalResuggest);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
