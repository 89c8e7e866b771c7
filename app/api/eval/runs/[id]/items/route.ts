import { handle } from "@/server/http/endpoint";
import { listItemsEndpoint } from "@/server/http/endpoints/eval";

export const GET = handle(listItemsEndpoint);
