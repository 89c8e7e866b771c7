import { handle } from "@/server/http/endpoint";
import { evalMeta } from "@/server/http/endpoints/eval";

export const GET = handle(evalMeta);
