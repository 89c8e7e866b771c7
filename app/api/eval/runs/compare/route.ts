import { handle } from "@/server/http/endpoint";
import { compareRunsEndpoint } from "@/server/http/endpoints/eval";

export const GET = handle(compareRunsEndpoint);
