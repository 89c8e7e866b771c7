import { handle } from "@/server/http/endpoint";
import { evalCreateRunBadCases } from "@/server/http/endpoints/eval";

export const POST = handle(evalCreateRunBadCases);
