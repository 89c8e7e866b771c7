import { handle } from "@/server/http/endpoint";
import { cancelRunEndpoint } from "@/server/http/endpoints/eval";

export const POST = handle(cancelRunEndpoint);
