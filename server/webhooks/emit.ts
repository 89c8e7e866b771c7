import type { Db } from "../db/client";
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
  const endpoints = await subscribers(db, type);
  if (!endpoints.length) return [];
  const value = typeof data === "function" ? await data() : data;
  if (!value) return [];
  const now = new Date();
  const payload = body(type, value, now);
  const rows = endpoints.map((e) => ({ id: deliveryId(), endpointId: e.id, event: type, payload, nextAttemptAt: now }));
  const made = await db.webhookDelivery.createManyAndReturn({
    data: rows,
    select: { id: true, endpointId: true, seq: true },
  });
  await enqueueAttempts(made.map((r) => ({ deliveryId: r.id, endpointId: r.endpointId, seq: r.seq, attempt: 0 })));
  return made.map((r) => r.id);
}

function subscribers(db: Db, type: WebhookEvent) {
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
