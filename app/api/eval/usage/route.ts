import { handle } from "@/server/http/endpoint";
import { evalUsage } from "@/server/http/endpoints/eval";

export const GET = handle(evalUsage);
