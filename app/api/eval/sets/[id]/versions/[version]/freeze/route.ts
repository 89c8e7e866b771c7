import { handle } from "@/server/http/endpoint";
import { evalFreezeVersion } from "@/server/http/endpoints/eval";

export const POST = handle(evalFreezeVersion);
