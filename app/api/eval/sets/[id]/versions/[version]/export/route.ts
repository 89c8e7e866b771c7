import { handle } from "@/server/http/endpoint";
import { evalExportSamples } from "@/server/http/endpoints/eval";

export const GET = handle(evalExportSamples);
