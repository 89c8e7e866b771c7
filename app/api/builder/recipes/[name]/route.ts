import { handle } from "@/server/http/endpoint";
import { builderGetRecipe } from "@/server/http/endpoints/builder";

export const GET = handle(builderGetRecipe);
