import { handle, otherMethods } from "@/server/http/endpoint";
import { evalGetItem } from "@/server/http/endpoints/eval";

export const GET = handle(evalGetItem);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
