import { handle } from "@/server/http/endpoint";
import { createBadCaseEndpoint } from "@/server/http/endpoints/eval";

export const POST = handle(createBadCaseEndpoint);
