import { handle } from "@/server/http/endpoint";
import { gateEndpoint } from "@/server/http/endpoints/eval";

export const GET = handle(gateEndpoint);
