import { handle } from "@/server/http/endpoint";
import { evalImportSamples } from "@/server/http/endpoints/eval";

export const POST = handle(evalImportSamples);
