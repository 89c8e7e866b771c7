import { handle, otherMethods } from "@/server/http/endpoint";
import { tracesGet } from "@/server/http/endpoints/runtime";

export const GET = handle(tracesGet);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
