import { handle } from "@/server/http/endpoint";
import { deleteSetEndpoint, getSetEndpoint, updateSetEndpoint } from "@/server/http/endpoints/eval";

export const GET = handle(getSetEndpoint);
export const PATCH = handle(updateSetEndpoint);
export const DELETE = handle(deleteSetEndpoint);
