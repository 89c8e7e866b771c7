import { handle } from "@/server/http/endpoint";
import { tracesGet } from "@/server/http/endpoints/runtime";

export const GET = handle(tracesGet);
