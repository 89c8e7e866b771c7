import { handle } from "@/server/http/endpoint";
import { evalCompareRuns } from "@/server/http/endpoints/eval";

export const GET = handle(evalCompareRuns);
