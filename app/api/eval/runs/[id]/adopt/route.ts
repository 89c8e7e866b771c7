import { handle } from "@/server/http/endpoint";
import { evalAdoptSuggestions } from "@/server/http/endpoints/eval";

export const POST = handle(evalAdoptSuggestions);
