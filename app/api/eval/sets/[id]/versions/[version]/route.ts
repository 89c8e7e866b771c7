import { handle } from "@/server/http/endpoint";
import { deleteVersionEndpoint, getVersionEndpoint, updateVersionEndpoint } from "@/server/http/endpoints/eval";

export const GET = handle(getVersionEndpoint);
export const PATCH = handle(updateVersionEndpoint);
export const DELETE = handle(deleteVersionEndpoint);
