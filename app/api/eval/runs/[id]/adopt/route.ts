import { handle, otherMethods } from "@/server/http/endpoint";
import { evalAdoptSuggestions } from "@/server/http/endpoints/eval";

export const POST = handle(evalAdoptSuggestions);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
