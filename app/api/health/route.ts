import { handle, otherMethods } from "@/server/http/endpoint";
import { health } from "@/server/http/endpoints/system";

export const GET = handle(health);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
