import { handle, otherMethods } from "@/server/http/endpoint";
import { evalSetCalibration } from "@/server/http/endpoints/eval";

export const GET = handle(evalSetCalibration);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
