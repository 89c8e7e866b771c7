import { handle, otherMethods } from "@/server/http/endpoint";
import { evalListItems } from "@/server/http/endpoints/eval";

export const GET = handle(evalListItems);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
