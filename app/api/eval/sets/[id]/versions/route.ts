import { handle } from "@/server/http/endpoint";
import { createVersionEndpoint } from "@/server/http/endpoints/eval";

export const POST = handle(createVersionEndpoint);
