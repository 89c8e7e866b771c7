import { handle, otherMethods } from "@/server/http/endpoint";
import { adminResendWebhookDelivery } from "@/server/http/endpoints/webhooks";

export const POST = handle(adminResendWebhookDelivery);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
