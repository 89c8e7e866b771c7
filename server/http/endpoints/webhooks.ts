import { rest } from "../rest";
import * as op from "../../webhooks/operations";
import { ErrorOut } from "../../core/errors";

/** Signed webhooks over REST (/api/admin/webhooks): admins only; handlers only call server/webhooks. */

const base = { tag: "Settings", auth: "token-or-session" } as const;
const notFound = { 404: { description: "Not found", schema: ErrorOut } };
const refusedUrl = {
  400: {
    description:
      "Invalid request, or a URL the SSRF policy refuses (WEBHOOK_URL_FORBIDDEN, details[0].rule names the rule; WEBHOOK_URL_INVALID, WEBHOOK_URL_UNRESOLVABLE)",
    schema: ErrorOut,
  },
};
const disabled = { 409: { description: "The endpoint is disabled (WEBHOOK_DISABLED)", schema: ErrorOut } };

export const adminCreateWebhook = rest(op.adminCreateWebhook, {
  ...base,
  method: "POST",
  path: "/api/admin/webhooks",
  summary: "Register a webhook endpoint (admins); the answer has its secret, shown once",
  responses: { 201: "The endpoint with its secret", ...refusedUrl },
  status: () => 201,
});

export const adminListWebhooks = rest(op.adminListWebhooks, {
  ...base,
  method: "GET",
  path: "/api/admin/webhooks",
  summary: "List webhook endpoints (admins)",
  responses: { 200: "The endpoints, without secrets" },
});

export const adminGetWebhook = rest(op.adminGetWebhook, {
  ...base,
  method: "GET",
  path: "/api/admin/webhooks/{id}",
  summary: "One webhook endpoint (admins)",
  responses: { 200: "The endpoint, without its secret", ...notFound },
});

export const adminUpdateWebhook = rest(op.adminUpdateWebhook, {
  ...base,
  method: "PATCH",
  path: "/api/admin/webhooks/{id}",
  summary: "Change a webhook endpoint's URL, events or enabled (admins)",
  responses: { 200: "The endpoint", ...refusedUrl, ...notFound },
});

export const adminDeleteWebhook = rest(op.adminDeleteWebhook, {
  ...base,
  method: "DELETE",
  path: "/api/admin/webhooks/{id}",
  summary: "Delete a webhook endpoint and its delivery log (admins)",
  responses: { 204: { description: "Deleted" }, ...notFound },
  respond: () => new Response(null, { status: 204 }),
});

export const adminTestWebhook = rest(op.adminTestWebhook, {
  ...base,
  method: "POST",
  path: "/api/admin/webhooks/{id}/test",
  summary: "Send a webhook.test delivery to the endpoint (admins)",
  responses: { 202: "The queued delivery", ...notFound, ...disabled },
  status: () => 202,
});

export const adminListWebhookDeliveries = rest(op.adminListWebhookDeliveries, {
  ...base,
  method: "GET",
  path: "/api/admin/webhooks/{id}/deliveries",
  summary: "The endpoint's delivery log, newest first (admins)",
  responses: { 200: "The deliveries", ...notFound },
});

export const adminResendWebhookDelivery = rest(op.adminResendWebhookDelivery, {
  ...base,
  method: "POST",
  path: "/api/admin/webhooks/{id}/deliveries/{deliveryId}/resend",
  summary: "Send a delivery again with the same webhook-id (admins)",
  responses: { 202: "The delivery, pending again", ...notFound, ...disabled },
  status: () => 202,
});
