import { handle, otherMethods } from "@/server/http/endpoint";
import { tracesList } from "@/server/http/endpoints/runtime";

export const GET = handle(tracesList);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
