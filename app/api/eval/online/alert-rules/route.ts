import { handle, otherMethods } from "@/server/http/endpoint";
import { evalCreateAlertRule, evalListAlertRules } from "@/server/http/endpoints/eval";

export const GET = handle(evalListAlertRules);
export const POST = handle(evalCreateAlertRule);
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
