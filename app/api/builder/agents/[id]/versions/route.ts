import { handle, otherMethods } from "@/server/http/endpoint";
import { builderAddVersion, builderListVersions } from "@/server/http/endpoints/builder";

export const GET = handle(builderListVersions);
export const POST = handle(builderAddVersion);
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
