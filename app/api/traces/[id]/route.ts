import { handle } from "@/server/http/endpoint";
import { getTraceEndpoint } from "@/server/http/endpoints/runtime";

export const GET = handle(getTraceEndpoint);
