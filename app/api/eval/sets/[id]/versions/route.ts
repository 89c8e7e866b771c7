import { handle } from "@/server/http/endpoint";
import { evalCreateVersion } from "@/server/http/endpoints/eval";

export const POST = handle(evalCreateVersion);
