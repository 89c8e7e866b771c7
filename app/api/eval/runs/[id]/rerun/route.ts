import { handle } from "@/server/http/endpoint";
import { evalRerun } from "@/server/http/endpoints/eval";

export const POST = handle(evalRerun);
