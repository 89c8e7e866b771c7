import { handle } from "@/server/http/endpoint";
import { exportSamplesEndpoint } from "@/server/http/endpoints/eval";

export const GET = handle(exportSamplesEndpoint);
