import { handle } from "@/server/http/endpoint";
import { importSamplesEndpoint } from "@/server/http/endpoints/eval";

export const POST = handle(importSamplesEndpoint);
