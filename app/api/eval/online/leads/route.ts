import { handle, otherMethods } from "@/server/http/endpoint";
import { evalListLeads } from "@/server/http/endpoints/eval";

export const GET = handle(evalListLeads);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
