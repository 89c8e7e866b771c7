import type PgBoss from "pg-boss";
import type { Db } from "../db/client";
import { attemptJobId } from "./sign";

/**
 * The deliveries' queue: one pg-boss queue (`webhook-delivery`) beside the evaluation queue's, in the same schema,
 * installed and worked by the process's eval queue (server/eval/runs/queue.ts hands its pg-boss instance here). A job
 * is one attempt of one delivery (`{ deliveryId, attempt }`, with a stable id per attempt, so scheduling an attempt
 * twice inserts one job); the retry schedule is ours (worker.ts), pg-boss's own retry only covers a worker that died
 * holding a job.
 *
 * The WebhookDelivery row is the truth: a delivery created in a process without a queue, or whose next job was
 * never inserted (a crash between the two writes), is picked up by the worker's sweep (`overdueDeliveries`).
 */
export const WEBHOOK_QUEUE = "webhook-delivery";
export const WEBHOOK_QUEUE_SETTINGS = {
  retryLimit: 3,
  retryDelay: 5,
  expireInSeconds: 120,
  retentionMinutes: 60 * 24 * 2,
} as const;

/** `seq`: the delivery's place in the order of creation (WebhookDelivery.seq), how the worker orders a batch. */
export type DeliveryJob = { deliveryId: string; endpointId: string; seq: number; attempt: number };
type Attempt = { deliveryId: string; endpointId: string; seq: bigint | number; attempt: number; at?: Date };

type Globals = { __flowbenchWebhookBoss?: PgBoss; __flowbenchWebhookWake?: () => void };
const globals = globalThis as typeof globalThis & Globals;

/** The process's pg-boss (the eval queue's) for sending delivery jobs; `wake` nudges the local worker. */
export function attachWebhookQueue(boss: PgBoss | undefined, wake?: () => void): void {
  globals.__flowbenchWebhookBoss = boss;
  globals.__flowbenchWebhookWake = wake;
}
export function detachWebhookQueue(boss: PgBoss): void {
  if (globals.__flowbenchWebhookBoss === boss) attachWebhookQueue(undefined);
}

/** Inserts the jobs of these attempts; without a queue in this process the worker's sweep sends them later. */
export async function enqueueAttempts(
  attempts: Attempt[],
  boss: PgBoss | undefined = globals.__flowbenchWebhookBoss,
): Promise<boolean> {
  if (!boss || attempts.length === 0) return false;
  await boss.insert(
    attempts.map((a) => ({
      name: WEBHOOK_QUEUE,
      id: attemptJobId(a.deliveryId, a.attempt),
      data: {
        deliveryId: a.deliveryId,
        endpointId: a.endpointId,
        seq: Number(a.seq),
        attempt: a.attempt,
      } satisfies DeliveryJob,
      ...(a.at && a.at.getTime() > Date.now() ? { startAfter: a.at } : {}),
    })),
  );
  globals.__flowbenchWebhookWake?.();
  return true;
}

/** Pending deliveries whose attempt is overdue by `graceSeconds` (their job may be missing). */
export async function overdueDeliveries(db: Db, graceSeconds: number, limit = 500) {
  return db.webhookDelivery.findMany({
    where: { status: "pending", nextAttemptAt: { lt: new Date(Date.now() - graceSeconds * 1000) } },
    select: { id: true, endpointId: true, seq: true, attempts: true },
    orderBy: { seq: "asc" },
    take: limit,
  });
}
