import { handle, otherMethods } from "@/server/http/endpoint";
import { evalRunReport } from "@/server/http/endpoints/eval";

export const GET = handle(evalRunReport);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
