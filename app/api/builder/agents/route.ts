import { handle } from "@/server/http/endpoint";
import { createAgentEndpoint, listAgentsEndpoint } from "@/server/http/endpoints/builder";

export const GET = handle(listAgentsEndpoint);
export const POST = handle(createAgentEndpoint);
