import { handle, otherMethods } from "@/server/http/endpoint";
import { evalRunGate } from "@/server/http/endpoints/eval";

export const GET = handle(evalRunGate);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
