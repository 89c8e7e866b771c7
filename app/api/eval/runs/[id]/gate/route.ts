import { handle } from "@/server/http/endpoint";
import { evalRunGate } from "@/server/http/endpoints/eval";

export const GET = handle(evalRunGate);
