import { handle, otherMethods } from "@/server/http/endpoint";
import { evalUsage } from "@/server/http/endpoints/eval";

export const GET = handle(evalUsage);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
