import { handle } from "@/server/http/endpoint";
import { listRecipes } from "@/server/http/endpoints/builder";

export const GET = handle(listRecipes);
