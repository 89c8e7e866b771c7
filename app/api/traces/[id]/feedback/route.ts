import { handle } from "@/server/http/endpoint";
import { feedbackEndpoint } from "@/server/http/endpoints/runtime";

export const POST = handle(feedbackEndpoint);
