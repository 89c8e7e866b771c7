import { handle } from "@/server/http/endpoint";
import { rerunEndpoint } from "@/server/http/endpoints/eval";

export const POST = handle(rerunEndpoint);
