import { handle, otherMethods } from "@/server/http/endpoint";
import { adminTestWebhook } from "@/server/http/endpoints/webhooks";

export const POST = handle(adminTestWebhook);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
