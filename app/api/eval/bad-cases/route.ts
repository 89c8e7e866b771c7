import { handle } from "@/server/http/endpoint";
import { listBadCasesEndpoint } from "@/server/http/endpoints/eval";

export const GET = handle(listBadCasesEndpoint);
