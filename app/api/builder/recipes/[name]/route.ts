import { handle } from "@/server/http/endpoint";
import { getRecipeEndpoint } from "@/server/http/endpoints/builder";

export const GET = handle(getRecipeEndpoint);
