import { handle, otherMethods } from "@/server/http/endpoint";
import { evalDeleteAlertRule, evalUpdateAlertRule } from "@/server/http/endpoints/eval";

export const PATCH = handle(evalUpdateAlertRule);
export const DELETE = handle(evalDeleteAlertRule);
export const { GET, POST, PUT, OPTIONS } = otherMethods(["PATCH", "DELETE"]);
