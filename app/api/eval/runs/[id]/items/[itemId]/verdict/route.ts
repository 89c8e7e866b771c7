import { handle } from "@/server/http/endpoint";
import { evalSetVerdict } from "@/server/http/endpoints/eval";

export const PUT = handle(evalSetVerdict);
