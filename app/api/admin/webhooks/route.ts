import { handle, otherMethods } from "@/server/http/endpoint";
import { adminCreateWebhook, adminListWebhooks } from "@/server/http/endpoints/webhooks";

export const GET = handle(adminListWebhooks);
export const POST = handle(adminCreateWebhook);
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
