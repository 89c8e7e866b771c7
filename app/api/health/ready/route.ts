import { handle, otherMethods } from "@/server/http/endpoint";
import { ready } from "@/server/http/endpoints/system";

export const GET = handle(ready);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
