import { handle } from "@/server/http/endpoint";
import { evalListItems } from "@/server/http/endpoints/eval";

export const GET = handle(evalListItems);
