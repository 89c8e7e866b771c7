import { handle } from "@/server/http/endpoint";
import { createSetEndpoint, listSetsEndpoint } from "@/server/http/endpoints/eval";

export const GET = handle(listSetsEndpoint);
export const POST = handle(createSetEndpoint);
