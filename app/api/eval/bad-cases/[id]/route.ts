import { handle } from "@/server/http/endpoint";
import { getBadCaseEndpoint, updateBadCaseEndpoint } from "@/server/http/endpoints/eval";

export const GET = handle(getBadCaseEndpoint);
export const PATCH = handle(updateBadCaseEndpoint);
