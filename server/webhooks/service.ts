import type { z } from "zod";
import type { Db } from "../db/client";
import { ApiError, errors } from "../core/errors";
import { actorRef, type Principal } from "../auth/service";
import { checkWebhookUrl } from "./policy";
import { enqueueAttempts } from "./queue";
import type { CreateWebhookBody, UpdateWebhookBody, WebhookEvent } from "./schemas";
import { deliveryId, generateSecret } from "./sign";

/**
 * Endpoints (admins) and their deliveries. The secret is answered once, by `createWebhook`; every other answer is
 * built by `endpointOut`, which has no secret field. Nothing here logs a secret or puts it in an error message.
 */

type EndpointRow = {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
};

const endpointSelect = {
  id: true,
  url: true,
  events: true,
  enabled: true,
  failingSince: true,
  disabledAt: true,
  disabledReason: true,
  createdAt: true,
  updatedAt: true,
} as const;

const endpointOut = (r: EndpointRow) => ({ ...r, events: r.events as WebhookEvent[] });

const deliverySelect = {
  id: true,
  endpointId: true,
  event: true,
  status: true,
  attempts: true,
  responseCode: true,
  lastError: true,
  lastAttemptAt: true,
  nextAttemptAt: true,
  deliveredAt: true,
  createdAt: true,
} as const;

type DeliveryRow = { event: string; status: string } & Record<string, unknown>;
const deliveryOut = <T extends DeliveryRow>(r: T) => ({
  ...r,
  event: r.event as WebhookEvent,
  status: r.status as "pending" | "delivered" | "failed",
});

async function endpointOr404(db: Db, id: string) {
  const row = await db.webhookEndpoint.findUnique({ where: { id }, select: endpointSelect });
  if (!row) throw errors.notFound(`Webhook endpoint ${id}`);
  return row;
}

export async function createWebhook(db: Db, body: z.output<typeof CreateWebhookBody>, principal: Principal) {
  await checkWebhookUrl(body.url);
  const secret = generateSecret();
  const row = await db.webhookEndpoint.create({
    data: {
      url: body.url,
      events: [...new Set(body.events)],
      enabled: body.enabled,
      disabledAt: body.enabled ? null : new Date(),
      secret,
      createdById: actorRef(principal),
    },
    select: endpointSelect,
  });
  return { ...endpointOut(row), secret };
}

export async function listWebhooks(db: Db) {
  const rows = await db.webhookEndpoint.findMany({ select: endpointSelect, orderBy: { createdAt: "asc" } });
  return rows.map(endpointOut);
}

export async function getWebhook(db: Db, id: string) {
  return endpointOut(await endpointOr404(db, id));
}

/** Enabling clears the server's reason and the failing clock; disabling by an admin gives no reason. */
export async function updateWebhook(db: Db, id: string, body: z.output<typeof UpdateWebhookBody>) {
  await endpointOr404(db, id);
  if (body.url !== undefined) await checkWebhookUrl(body.url);
  const row = await db.webhookEndpoint.update({
    where: { id },
    data: {
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.events !== undefined ? { events: [...new Set(body.events)] } : {}),
      ...(body.enabled === true ? { enabled: true, disabledAt: null, disabledReason: null, failingSince: null } : {}),
      ...(body.enabled === false ? { enabled: false, disabledAt: new Date(), disabledReason: null } : {}),
    },
    select: endpointSelect,
  });
  return endpointOut(row);
}

export async function deleteWebhook(db: Db, id: string) {
  await endpointOr404(db, id);
  await db.webhookEndpoint.delete({ where: { id } });
  return { deleted: true as const };
}

export async function listDeliveries(db: Db, id: string, limit: number) {
  await endpointOr404(db, id);
  const rows = await db.webhookDelivery.findMany({
    where: { endpointId: id },
    select: deliverySelect,
    orderBy: { seq: "desc" },
    take: limit,
  });
  return { items: rows.map(deliveryOut) };
}

export function body(type: WebhookEvent, data: unknown, at = new Date()) {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/** A `webhook.test` delivery to this endpoint (whatever events it subscribes to). */
export async function testWebhook(db: Db, id: string) {
  const endpoint = await endpointOr404(db, id);
  if (!endpoint.enabled) throw new ApiError(409, "WEBHOOK_DISABLED", "The endpoint is disabled: enable it first");
  const now = new Date();
  const row = await db.webhookDelivery.create({
    data: {
      id: deliveryId(),
      endpointId: id,
      event: "webhook.test",
      payload: body("webhook.test", { endpointId: id, message: "A test delivery from Flowbench" }, now),
      nextAttemptAt: now,
    },
    select: { ...deliverySelect, seq: true },
  });
  const { seq, ...out } = row;
  await enqueueAttempts([{ deliveryId: row.id, endpointId: id, seq, attempt: 0 }]);
  return deliveryOut(out);
}

/** Sends a delivery again, with the same id and body (a new attempt, a fresh timestamp and signature). */
export async function resendDelivery(db: Db, id: string, delivery: string) {
  const endpoint = await endpointOr404(db, id);
  if (!endpoint.enabled) throw new ApiError(409, "WEBHOOK_DISABLED", "The endpoint is disabled: enable it first");
  const found = await db.webhookDelivery.findFirst({ where: { id: delivery, endpointId: id }, select: { id: true } });
  if (!found) throw errors.notFound(`Delivery ${delivery}`);
  const row = await db.webhookDelivery.update({
    where: { id: delivery },
    data: { status: "pending", nextAttemptAt: new Date() },
    select: { ...deliverySelect, seq: true },
  });
  const { seq, ...out } = row;
  await enqueueAttempts([{ deliveryId: row.id, endpointId: id, seq, attempt: row.attempts }]);
  return deliveryOut(out);
}
