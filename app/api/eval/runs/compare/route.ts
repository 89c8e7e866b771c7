import { handle, otherMethods } from "@/server/http/endpoint";
import { evalCompareRuns } from "@/server/http/endpoints/eval";

export const GET = handle(evalCompareRuns);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
