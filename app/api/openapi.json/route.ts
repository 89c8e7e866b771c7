import { handle, otherMethods } from "@/server/http/endpoint";
import { openapi } from "@/server/http/endpoints";

export const GET = handle(openapi);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
