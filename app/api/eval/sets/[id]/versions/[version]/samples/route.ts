import { handle, otherMethods } from "@/server/http/endpoint";
import { evalAddSample, evalListSamples } from "@/server/http/endpoints/eval";

export const GET = handle(evalListSamples);
export const POST = handle(evalAddSample);
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
