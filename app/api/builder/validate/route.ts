import { handle } from "@/server/http/endpoint";
import { builderValidate } from "@/server/http/endpoints/builder";

export const POST = handle(builderValidate);
