import { handle } from "@/server/http/endpoint";
import { evalGetItem } from "@/server/http/endpoints/eval";

export const GET = handle(evalGetItem);
