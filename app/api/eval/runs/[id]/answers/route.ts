import { handle } from "@/server/http/endpoint";
import { pastedAnswersEndpoint } from "@/server/http/endpoints/eval";

export const POST = handle(pastedAnswersEndpoint);
