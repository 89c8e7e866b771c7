import { handle } from "@/server/http/endpoint";
import { openapi } from "@/server/http/endpoints";

export const GET = handle(openapi);
