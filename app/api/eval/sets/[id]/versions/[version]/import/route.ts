import { handle, otherMethods } from "@/server/http/endpoint";
import { evalImportSamples } from "@/server/http/endpoints/eval";

export const POST = handle(evalImportSamples);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
