import { handle } from "@/server/http/endpoint";
import { getRunEndpoint } from "@/server/http/endpoints/eval";

export const GET = handle(getRunEndpoint);
