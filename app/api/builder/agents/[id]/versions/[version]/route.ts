import { handle } from "@/server/http/endpoint";
import { builderGetVersion } from "@/server/http/endpoints/builder";

export const GET = handle(builderGetVersion);
