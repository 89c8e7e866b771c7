import { handle, otherMethods } from "@/server/http/endpoint";
import { builderListRecipes } from "@/server/http/endpoints/builder";

export const GET = handle(builderListRecipes);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
