import { handle, otherMethods } from "@/server/http/endpoint";
import { builderGetVersion } from "@/server/http/endpoints/builder";

export const GET = handle(builderGetVersion);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
