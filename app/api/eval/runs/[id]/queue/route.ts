import { handle } from "@/server/http/endpoint";
import { evalListQueue } from "@/server/http/endpoints/eval";

export const GET = handle(evalListQueue);
