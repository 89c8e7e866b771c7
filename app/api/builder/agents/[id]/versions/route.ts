import { handle } from "@/server/http/endpoint";
import { addVersionEndpoint, listVersionsEndpoint } from "@/server/http/endpoints/builder";

export const GET = handle(listVersionsEndpoint);
export const POST = handle(addVersionEndpoint);
