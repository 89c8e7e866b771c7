import { handle, otherMethods } from "@/server/http/endpoint";
import { evalDismissLead, evalRestoreLead } from "@/server/http/endpoints/eval";

export const POST = handle(evalDismissLead);
export const DELETE = handle(evalRestoreLead);
export const { GET, PUT, PATCH, OPTIONS } = otherMethods(["POST", "DELETE"]);
