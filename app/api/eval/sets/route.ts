import { handle, otherMethods } from "@/server/http/endpoint";
import { evalCreateSet, evalListSets } from "@/server/http/endpoints/eval";

export const GET = handle(evalListSets);
export const POST = handle(evalCreateSet);
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
