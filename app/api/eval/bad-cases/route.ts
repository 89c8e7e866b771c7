import { handle } from "@/server/http/endpoint";
import { evalListBadCases } from "@/server/http/endpoints/eval";

export const GET = handle(evalListBadCases);
