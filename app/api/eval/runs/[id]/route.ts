import { handle } from "@/server/http/endpoint";
import { evalGetRun } from "@/server/http/endpoints/eval";

export const GET = handle(evalGetRun);
