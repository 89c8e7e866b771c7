import { handle, otherMethods } from "@/server/http/endpoint";
import { evalLeadCounts } from "@/server/http/endpoints/eval";

export const GET = handle(evalLeadCounts);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
