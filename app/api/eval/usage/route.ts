import { handle } from "@/server/http/endpoint";
import { usageEndpoint } from "@/server/http/endpoints/eval";

export const GET = handle(usageEndpoint);
