import { handle, otherMethods } from "@/server/http/endpoint";
import { metricsEndpoint } from "@/server/http/endpoints/metrics";

export const GET = handle(metricsEndpoint);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
