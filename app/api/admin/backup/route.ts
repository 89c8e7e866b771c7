import { handle, otherMethods } from "@/server/http/endpoint";
import { backup } from "@/server/http/endpoints/system";

export const GET = handle(backup);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
