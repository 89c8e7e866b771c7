import { handle } from "@/server/http/endpoint";
import { evalCreateBadCase } from "@/server/http/endpoints/eval";

export const POST = handle(evalCreateBadCase);
