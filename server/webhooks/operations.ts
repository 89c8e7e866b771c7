/**
 * Signed webhooks as operations (server/auth/operation.ts): admins only, on REST (`/api/admin/webhooks`) and tRPC
 * (`admin.webhooks.*`, the Settings page), each declared once here.
 */
import { z } from "zod";
import { defineOperation } from "../auth/operation";
import {
  CreateWebhookBody,
  CreatedWebhookOut,
  DeletedOut,
  DeliveriesQuery,
  DeliveryListOut,
  DeliveryOut,
  DeliveryParams,
  UpdateWebhookBody,
  WEBHOOK_EVENTS,
  WebhookOut,
  WebhookParams,
} from "./schemas";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  resendDelivery,
  testWebhook,
  updateWebhook,
} from "./service";

const EVENTS = WEBHOOK_EVENTS.map((e) => `\`${e}\``).join(", ");

const DELIVERY_RULES = `Deliveries follow the Standard Webhooks convention: a POST with the body \`{ type, timestamp, data }\` and the headers \`webhook-id\` (the delivery's id, the same on every retry and resend), \`webhook-timestamp\` (unix seconds of the attempt) and \`webhook-signature\` (\`v1,\` + base64 of HMAC-SHA256 over \`{webhook-id}.{webhook-timestamp}.{body}\`, keyed with the secret's bytes after \`whsec_\`, base64-decoded). A 2xx within WEBHOOK_TIMEOUT_SECONDS (10 s) delivers; anything else is retried with exponential backoff (the first retry after WEBHOOK_RETRY_BASE_SECONDS, 30 s, then doubling) for WEBHOOK_DISABLE_AFTER_SECONDS (a day), at least once. An endpoint whose attempts all fail for that long is disabled, with the reason in \`disabledReason\`.`;

export const adminCreateWebhook = defineOperation({
  id: "adminCreateWebhook",
  trpc: "admin.webhooks.create",
  kind: "mutation",
  permission: "admin",
  description: `Registers an endpoint for the events it lists (${EVENTS}). The URL must pass the same SSRF policy as http nodes (400 WEBHOOK_URL_FORBIDDEN naming the rule: no metadata or link-local addresses; private or loopback ones only for origins listed exactly in HTTP_ALLOWED_ORIGINS). The answer carries the endpoint's \`secret\` (\`whsec_\` + base64 of 32 random bytes): shown this once, never in another answer. ${DELIVERY_RULES}`,
  body: CreateWebhookBody,
  output: CreatedWebhookOut,
  run: ({ db, body, principal }) => createWebhook(db, body, principal),
});

export const adminListWebhooks = defineOperation({
  id: "adminListWebhooks",
  trpc: "admin.webhooks.list",
  kind: "query",
  permission: "admin",
  description: "Every endpoint, oldest first, without secrets; a disabled one says why (`disabledReason`).",
  output: z.array(WebhookOut),
  run: ({ db }) => listWebhooks(db),
});

export const adminGetWebhook = defineOperation({
  id: "adminGetWebhook",
  trpc: "admin.webhooks.get",
  kind: "query",
  permission: "admin",
  description: "One endpoint, without its secret.",
  params: WebhookParams,
  output: WebhookOut,
  run: ({ db, params }) => getWebhook(db, params.id),
});

export const adminUpdateWebhook = defineOperation({
  id: "adminUpdateWebhook",
  trpc: "admin.webhooks.update",
  kind: "mutation",
  permission: "admin",
  description:
    "Changes the URL (checked like at creation), the events or `enabled`. Enabling clears the server's `disabledReason` and the failing clock; the secret stays.",
  params: WebhookParams,
  body: UpdateWebhookBody,
  output: WebhookOut,
  run: ({ db, params, body }) => updateWebhook(db, params.id, body),
});

export const adminDeleteWebhook = defineOperation({
  id: "adminDeleteWebhook",
  trpc: "admin.webhooks.delete",
  kind: "mutation",
  permission: "admin",
  description: "Deletes the endpoint and its delivery log; pending deliveries are not sent.",
  params: WebhookParams,
  output: DeletedOut,
  run: ({ db, params }) => deleteWebhook(db, params.id),
});

export const adminTestWebhook = defineOperation({
  id: "adminTestWebhook",
  trpc: "admin.webhooks.test",
  kind: "mutation",
  permission: "admin",
  description:
    "Sends a `webhook.test` delivery to this endpoint (whatever events it lists) through the queue; the answer is the pending delivery, its log entry. 409 WEBHOOK_DISABLED while the endpoint is disabled.",
  params: WebhookParams,
  output: DeliveryOut,
  run: ({ db, params }) => testWebhook(db, params.id),
});

export const adminListWebhookDeliveries = defineOperation({
  id: "adminListWebhookDeliveries",
  trpc: "admin.webhooks.deliveries",
  kind: "query",
  permission: "admin",
  description:
    "The endpoint's delivery log, newest first: each delivery's event, status (pending, delivered, failed), attempts, the last response code or error and when.",
  params: WebhookParams,
  query: DeliveriesQuery,
  output: DeliveryListOut,
  run: ({ db, params, query }) => listDeliveries(db, params.id, query.limit),
});

export const adminResendWebhookDelivery = defineOperation({
  id: "adminResendWebhookDelivery",
  trpc: "admin.webhooks.resend",
  kind: "mutation",
  permission: "admin",
  description:
    "Sends a delivery again: the same `webhook-id` and body, a new attempt (fresh timestamp and signature), retried like a new one. 409 WEBHOOK_DISABLED while the endpoint is disabled.",
  params: DeliveryParams,
  output: DeliveryOut,
  run: ({ db, params }) => resendDelivery(db, params.id, params.deliveryId),
});

export const WEBHOOK_OPERATIONS = [
  adminCreateWebhook,
  adminListWebhooks,
  adminGetWebhook,
  adminUpdateWebhook,
  adminDeleteWebhook,
  adminTestWebhook,
  adminListWebhookDeliveries,
  adminResendWebhookDelivery,
];
