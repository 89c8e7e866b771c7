import { handle } from "@/server/http/endpoint";
import { startRunEndpoint } from "@/server/http/endpoints/eval";

export const POST = handle(startRunEndpoint);
