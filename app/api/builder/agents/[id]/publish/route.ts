import { handle } from "@/server/http/endpoint";
import { publishEndpoint } from "@/server/http/endpoints/runtime";

export const POST = handle(publishEndpoint);
