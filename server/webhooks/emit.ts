import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { enqueueAttempts } from "./queue";
import type { WebhookEvent } from "./schemas";
import { body } from "./service";
import { deliveryId } from "./sign";

/**
 * Emitting events. `emitWebhookEvent` is what a domain calls after its action committed: it returns at once and
 * does its work in the background (find the subscribed endpoints, build the data only when there is one, a delivery
 * row each, their jobs); a failure is logged without the payload, never thrown, so emitting neither slows nor fails
 * the action that emits.
 */

type Data = Record<string, unknown>;
type DataSource = Data | (() => Promise<Data | null>);

function logFailure(type: string, e: unknown) {
  console.error(`[flowbench] webhooks: could not emit ${type}: ${(e as Error)?.message ?? String(e)}`);
}

export function emitWebhookEvent(db: Db, type: WebhookEvent, data: DataSource): void {
  void createDeliveries(db, type, data).catch((e: unknown) => logFailure(type, e));
}

/** The awaited form of emitWebhookEvent: answers the deliveries' ids (none when no enabled endpoint subscribes). */
export async function createDeliveries(db: Db, type: WebhookEvent, data: DataSource): Promise<string[]> {
  if (!(await subscribers(db, type)).length) return [];
  const value = typeof data === "function" ? await data() : data;
  if (!value) return [];
  const made = await deliveriesIn(db, type, [value]);
  await sendDeliveries(made);
  return made.map((r) => r.id);
}

/** What deliveriesIn writes with: the application's client or an interactive transaction's. */
type DeliveryClient = Pick<Prisma.TransactionClient, "webhookEndpoint" | "webhookDelivery">;
export type MadeDelivery = { id: string; endpointId: string; seq: bigint };

/**
 * The delivery rows of events (one per event and subscribed endpoint), written with `client`: inside the transaction
 * that records what the events announce, so an event is recorded exactly when its deliveries are (an event sent
 * exactly once per thing: `lead.created`, `alert.fired`). Their jobs are for the caller to send after the commit
 * (`sendDeliveries`); a crash in between leaves pending rows that the worker's sweep sends.
 */
export async function deliveriesIn(
  client: DeliveryClient,
  type: WebhookEvent,
  events: Data[],
): Promise<MadeDelivery[]> {
  if (!events.length) return [];
  const endpoints = await subscribers(client, type);
  if (!endpoints.length) return [];
  const now = new Date();
  const rows = events.flatMap((value) => {
    const payload = body(type, value, now);
    return endpoints.map((e) => ({ id: deliveryId(), endpointId: e.id, event: type, payload, nextAttemptAt: now }));
  });
  return client.webhookDelivery.createManyAndReturn({ data: rows, select: { id: true, endpointId: true, seq: true } });
}

/** The first attempts' jobs of deliveries written by deliveriesIn (after their transaction committed). */
export async function sendDeliveries(made: MadeDelivery[]): Promise<void> {
  await enqueueAttempts(made.map((r) => ({ deliveryId: r.id, endpointId: r.endpointId, seq: r.seq, attempt: 0 })));
}

/** Whether an enabled endpoint subscribes to `type` (read before building an event's data). */
export async function hasSubscribers(db: Db, type: WebhookEvent): Promise<boolean> {
  return (await subscribers(db, type)).length > 0;
}

function subscribers(db: Pick<DeliveryClient, "webhookEndpoint">, type: WebhookEvent) {
  return db.webhookEndpoint.findMany({
    where: { enabled: true, events: { has: type } },
    select: { id: true },
    orderBy: { createdAt: "asc" },
  });
}

/**
 * Emits `type` when `subject`'s state becomes `value` and it was something else before (one atomic statement, so two
 * callers racing emit once). For `gate.decided`: the gate's status per run, emitted on pass or fail.
 */
export async function emitOnChange(
  db: Db,
  type: WebhookEvent,
  subject: string,
  probe: () => Promise<{ value: string; emit: boolean; data: Data } | null>,
): Promise<string[]> {
  if (!(await subscribers(db, type)).length) return [];
  const state = await probe();
  if (!state) return [];
  const changed = await db.$queryRaw<Array<{ key: string }>>`
    INSERT INTO "WebhookEventState" ("key", "value", "updatedAt") VALUES (${subject}, ${state.value}, now())
    ON CONFLICT ("key") DO UPDATE SET "value" = EXCLUDED."value", "updatedAt" = now()
      WHERE "WebhookEventState"."value" <> EXCLUDED."value"
    RETURNING "key"`;
  if (!changed.length || !state.emit) return [];
  return createDeliveries(db, type, state.data);
}

// ------------------------------------------------------------------ the gate

type GateProbe = (db: Db, runId: string) => Promise<{ status: string; data: Data } | null>;
type Globals = { __flowbenchGateProbe?: GateProbe };
const globals = globalThis as typeof globalThis & Globals;

/**
 * The evaluation center's gate, handed here by server/eval/reports (which sits above this floor) when it loads: how
 * `gate.decided` learns a run's gate without this folder importing the evaluation center.
 */
export function registerGateProbe(probe: GateProbe): void {
  globals.__flowbenchGateProbe = probe;
}

/** In the background: `gate.decided` when the run's gate became pass or fail (after a verdict, a run settling). */
export function emitGateIfDecided(db: Db, runId: string): void {
  const probe = globals.__flowbenchGateProbe;
  if (!probe) return;
  void emitOnChange(db, "gate.decided", `gate:${runId}`, async () => {
    const gate = await probe(db, runId);
    return gate
      ? { value: gate.status, emit: gate.status === "pass" || gate.status === "fail", data: gate.data }
      : null;
  }).catch((e: unknown) => logFailure("gate.decided", e));
}
