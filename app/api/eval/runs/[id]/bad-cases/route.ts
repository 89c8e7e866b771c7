import { handle } from "@/server/http/endpoint";
import { createRunBadCasesEndpoint } from "@/server/http/endpoints/eval";

export const POST = handle(createRunBadCasesEndpoint);
