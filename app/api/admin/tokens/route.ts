import { handle, otherMethods } from "@/server/http/endpoint";
import { adminCreateToken } from "@/server/http/endpoints/admin";

export const POST = handle(adminCreateToken);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
