import { handle } from "@/server/http/endpoint";
import { openapi } from "@/server/http/endpoints/system";

export const GET = handle(openapi);
