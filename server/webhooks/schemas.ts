import { z } from "zod";

/** The events an endpoint may subscribe to (the `type` of a delivery's body). */
export const WEBHOOK_EVENTS = [
  "run.answered",
  "run.completed",
  "gate.decided",
  "lead.created",
  "bad_case.changed",
  "alert.fired",
  "webhook.test",
] as const;
export const WebhookEvent = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export const DeliveryStatus = z.enum(DELIVERY_STATUSES);

const date = z.iso.datetime();

export const WebhookParams = z.object({ id: z.string().min(1).max(100) });
export const DeliveryParams = z.object({ id: z.string().min(1).max(100), deliveryId: z.string().min(1).max(100) });

/** The shape only; whether it parses as a URL and where it points: checkWebhookUrl (400 WEBHOOK_URL_INVALID / _FORBIDDEN). */
export const WebhookUrl = z
  .string()
  .trim()
  .max(2000)
  .regex(/^https?:\/\/[^\s/?#]+\S*$/, "an absolute http(s) URL");

export const CreateWebhookBody = z.object({
  url: WebhookUrl,
  events: z.array(WebhookEvent).min(1).max(WEBHOOK_EVENTS.length),
  enabled: z.boolean().default(true),
});
export const UpdateWebhookBody = z
  .object({
    url: WebhookUrl.optional(),
    events: z.array(WebhookEvent).min(1).max(WEBHOOK_EVENTS.length).optional(),
    enabled: z.boolean().optional(),
  })
  .refine((b) => b.url !== undefined || b.events !== undefined || b.enabled !== undefined, "nothing to change");

export const WebhookOut = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(WebhookEvent),
  enabled: z.boolean(),
  /** since when every attempt failed; null while it answers */
  failingSince: date.nullable(),
  disabledAt: date.nullable(),
  /** why the server disabled it (failing for a day); null when enabled or disabled by an admin */
  disabledReason: z.string().nullable(),
  createdAt: date,
  updatedAt: date,
});
/** The creation's answer: the only one with the secret. */
export const CreatedWebhookOut = WebhookOut.extend({
  secret: z.string().meta({ description: "`whsec_` + base64 of 32 random bytes; shown this once" }),
});

export const DeliveryOut = z.object({
  /** the `webhook-id` header of every attempt */
  id: z.string(),
  endpointId: z.string(),
  event: WebhookEvent,
  status: DeliveryStatus,
  attempts: z.number().int(),
  responseCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: date.nullable(),
  nextAttemptAt: date.nullable(),
  deliveredAt: date.nullable(),
  createdAt: date,
});
export const DeliveriesQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
export const DeliveryListOut = z.object({ items: z.array(DeliveryOut) });
export const DeletedOut = z.object({ deleted: z.literal(true) });
