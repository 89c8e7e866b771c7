import { handle, otherMethods } from "@/server/http/endpoint";
import { evalListAlerts } from "@/server/http/endpoints/eval";

export const GET = handle(evalListAlerts);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
