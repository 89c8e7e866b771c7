import { handle } from "@/server/http/endpoint";
import { builderPublishAgent } from "@/server/http/endpoints/builder";

export const POST = handle(builderPublishAgent);
