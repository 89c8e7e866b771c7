import { handle, otherMethods } from "@/server/http/endpoint";
import { evalRerun } from "@/server/http/endpoints/eval";

export const POST = handle(evalRerun);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
