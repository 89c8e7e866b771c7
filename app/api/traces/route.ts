import { handle } from "@/server/http/endpoint";
import { listTracesEndpoint } from "@/server/http/endpoints/runtime";

export const GET = handle(listTracesEndpoint);
