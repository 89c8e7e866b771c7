import { handle } from "@/server/http/endpoint";
import { builderListRecipes } from "@/server/http/endpoints/builder";

export const GET = handle(builderListRecipes);
