import { handle, otherMethods } from "@/server/http/endpoint";
import { evalExportSamples } from "@/server/http/endpoints/eval";

export const GET = handle(evalExportSamples);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
