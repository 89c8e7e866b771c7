import { handle } from "@/server/http/endpoint";
import { createRunEndpoint, listRunsEndpoint } from "@/server/http/endpoints/eval";

export const GET = handle(listRunsEndpoint);
export const POST = handle(createRunEndpoint);
