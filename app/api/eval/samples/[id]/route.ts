import { handle } from "@/server/http/endpoint";
import { deleteSampleEndpoint, getSampleEndpoint, updateSampleEndpoint } from "@/server/http/endpoints/eval";

export const GET = handle(getSampleEndpoint);
export const PATCH = handle(updateSampleEndpoint);
export const DELETE = handle(deleteSampleEndpoint);
