import { handle, otherMethods } from "@/server/http/endpoint";
import { adminListWebhookDeliveries } from "@/server/http/endpoints/webhooks";

export const GET = handle(adminListWebhookDeliveries);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
