import { handle } from "@/server/http/endpoint";
import { reportEndpoint } from "@/server/http/endpoints/eval";

export const GET = handle(reportEndpoint);
