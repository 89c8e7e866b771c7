import { handle } from "@/server/http/endpoint";
import { getVersionEndpoint } from "@/server/http/endpoints/builder";

export const GET = handle(getVersionEndpoint);
