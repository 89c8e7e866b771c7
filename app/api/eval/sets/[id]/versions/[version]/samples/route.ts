import { handle } from "@/server/http/endpoint";
import { addSampleEndpoint, listSamplesEndpoint } from "@/server/http/endpoints/eval";

export const GET = handle(listSamplesEndpoint);
export const POST = handle(addSampleEndpoint);
