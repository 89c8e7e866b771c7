import { handle } from "@/server/http/endpoint";
import { testRunEndpoint } from "@/server/http/endpoints/runtime";

export const POST = handle(testRunEndpoint);
