import { handle, otherMethods } from "@/server/http/endpoint";
import { evalMeta } from "@/server/http/endpoints/eval";

export const GET = handle(evalMeta);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
