import { handle } from "@/server/http/endpoint";
import { getItemEndpoint } from "@/server/http/endpoints/eval";

export const GET = handle(getItemEndpoint);
