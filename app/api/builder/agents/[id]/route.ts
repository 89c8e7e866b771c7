import { handle } from "@/server/http/endpoint";
import { deleteAgentEndpoint, getAgentEndpoint, updateAgentEndpoint } from "@/server/http/endpoints/builder";

export const GET = handle(getAgentEndpoint);
export const PATCH = handle(updateAgentEndpoint);
export const DELETE = handle(deleteAgentEndpoint);
