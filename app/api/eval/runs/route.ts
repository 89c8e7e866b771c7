import { handle, otherMethods } from "@/server/http/endpoint";
import { evalCreateRun, evalListRuns } from "@/server/http/endpoints/eval";

export const GET = handle(evalListRuns);
export const POST = handle(evalCreateRun);
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
