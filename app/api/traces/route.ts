import { handle } from "@/server/http/endpoint";
import { tracesList } from "@/server/http/endpoints/runtime";

export const GET = handle(tracesList);
