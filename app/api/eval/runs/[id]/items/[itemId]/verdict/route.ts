import { handle } from "@/server/http/endpoint";
import { setVerdictEndpoint } from "@/server/http/endpoints/eval";

export const PUT = handle(setVerdictEndpoint);
