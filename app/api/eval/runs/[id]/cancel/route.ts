import { handle } from "@/server/http/endpoint";
import { evalCancelRun } from "@/server/http/endpoints/eval";

export const POST = handle(evalCancelRun);
