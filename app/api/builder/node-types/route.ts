import { handle } from "@/server/http/endpoint";
import { builderListNodeTypes } from "@/server/http/endpoints/builder";

export const GET = handle(builderListNodeTypes);
