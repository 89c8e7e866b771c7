import { handle, otherMethods } from "@/server/http/endpoint";
import { evalCloseAnswering } from "@/server/http/endpoints/eval";

export const POST = handle(evalCloseAnswering);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
