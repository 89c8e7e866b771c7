import { handle, otherMethods } from "@/server/http/endpoint";
import { adminDeleteWebhook, adminGetWebhook, adminUpdateWebhook } from "@/server/http/endpoints/webhooks";

export const GET = handle(adminGetWebhook);
export const PATCH = handle(adminUpdateWebhook);
export const DELETE = handle(adminDeleteWebhook);
export const { POST, PUT, OPTIONS } = otherMethods(["GET", "PATCH", "DELETE"]);
