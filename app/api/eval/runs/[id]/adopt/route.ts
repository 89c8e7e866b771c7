import { handle } from "@/server/http/endpoint";
import { adoptEndpoint } from "@/server/http/endpoints/eval";

export const POST = handle(adoptEndpoint);
