import { handle } from "@/server/http/endpoint";
import { nodeTypes } from "@/server/http/endpoints/builder";

export const GET = handle(nodeTypes);
