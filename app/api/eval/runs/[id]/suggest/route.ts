import { handle } from "@/server/http/endpoint";
import { evalResuggest } from "@/server/http/endpoints/eval";

export const POST = handle(evalResuggest);
