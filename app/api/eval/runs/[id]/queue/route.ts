import { handle, otherMethods } from "@/server/http/endpoint";
import { evalListQueue } from "@/server/http/endpoints/eval";

export const GET = handle(evalListQueue);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
