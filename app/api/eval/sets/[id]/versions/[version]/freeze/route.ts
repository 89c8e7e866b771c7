import { handle } from "@/server/http/endpoint";
import { freezeVersionEndpoint } from "@/server/http/endpoints/eval";

export const POST = handle(freezeVersionEndpoint);
