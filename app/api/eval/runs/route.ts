import { handle } from "@/server/http/endpoint";
import { evalCreateRun, evalListRuns } from "@/server/http/endpoints/eval";

export const GET = handle(evalListRuns);
export const POST = handle(evalCreateRun);
