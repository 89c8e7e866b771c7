import { handle, otherMethods } from "@/server/http/endpoint";
import { builderGetRecipe } from "@/server/http/endpoints/builder";

export const GET = handle(builderGetRecipe);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
