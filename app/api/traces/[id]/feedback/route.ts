import { handle } from "@/server/http/endpoint";
import { tracesFeedback } from "@/server/http/endpoints/runtime";

export const POST = handle(tracesFeedback);
