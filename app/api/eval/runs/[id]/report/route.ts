import { handle } from "@/server/http/endpoint";
import { evalRunReport } from "@/server/http/endpoints/eval";

export const GET = handle(evalRunReport);
