import { handle } from "@/server/http/endpoint";
import { agentTestRun } from "@/server/http/endpoints/runtime";

export const POST = handle(agentTestRun);
