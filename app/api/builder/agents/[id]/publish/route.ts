import { handle, otherMethods } from "@/server/http/endpoint";
import { builderPublishAgent } from "@/server/http/endpoints/builder";

export const POST = handle(builderPublishAgent);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
