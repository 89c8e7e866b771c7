import { handle, otherMethods } from "@/server/http/endpoint";
import { builderValidate } from "@/server/http/endpoints/builder";

export const POST = handle(builderValidate);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
