import { handle } from "@/server/http/endpoint";
import { evalStartRun } from "@/server/http/endpoints/eval";

export const POST = handle(evalStartRun);
