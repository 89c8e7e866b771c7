import { handle } from "@/server/http/endpoint";
import { resuggestEndpoint } from "@/server/http/endpoints/eval";

export const POST = handle(resuggestEndpoint);
