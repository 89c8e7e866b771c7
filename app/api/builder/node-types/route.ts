import { handle, otherMethods } from "@/server/http/endpoint";
import { builderListNodeTypes } from "@/server/http/endpoints/builder";

export const GET = handle(builderListNodeTypes);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
