import { handle, otherMethods } from "@/server/http/endpoint";
import { evalPasteAnswers } from "@/server/http/endpoints/eval";

export const POST = handle(evalPasteAnswers);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
