import { handle, otherMethods } from "@/server/http/endpoint";
import { evalListAudits } from "@/server/http/endpoints/eval";

export const GET = handle(evalListAudits);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
