import { handle } from "@/server/http/endpoint";
import { agentChat } from "@/server/http/endpoints/runtime";

export const POST = handle(agentChat);
