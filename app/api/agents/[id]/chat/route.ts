import { handle } from "@/server/http/endpoint";
import { chatEndpoint } from "@/server/http/endpoints/runtime";

export const POST = handle(chatEndpoint);
