import { handle, otherMethods } from "@/server/http/endpoint";
import { evalQueueNeighbours } from "@/server/http/endpoints/eval";

export const GET = handle(evalQueueNeighbours);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
