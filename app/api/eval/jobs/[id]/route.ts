import { handle, otherMethods } from "@/server/http/endpoint";
import { evalGetJob } from "@/server/http/endpoints/eval";

export const GET = handle(evalGetJob);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
