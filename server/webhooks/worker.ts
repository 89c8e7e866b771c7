import type PgBoss from "pg-boss";
import type { Db } from "../db/client";
import { env } from "../core/env";
import { metrics } from "../telemetry/metrics";
import { safeRequest } from "../runtime/http/client";
import { webhookPolicy } from "./policy";
import {
  type DeliveryJob,
  WEBHOOK_QUEUE,
  attachWebhookQueue,
  detachWebhookQueue,
  enqueueAttempts,
  overdueDeliveries,
} from "./queue";
import { retryDelaySeconds, signedHeaders } from "./sign";
import { IdleWait } from "../core/idle";

export type WebhookWorkerOptions = {
  db: Db;
  boss: PgBoss;
  /** attempts in flight at once in this instance (each bounded by the timeout, so a slow endpoint holds one slot for at most that) */
  slots?: number;
  pollMs?: number;
  log?: (message: string) => void;
};

type Settings = { baseSeconds: number; windowSeconds: number; timeoutMs: number };

function settings(): Settings {
  const e = env();
  return {
    baseSeconds: e.WEBHOOK_RETRY_BASE_SECONDS,
    windowSeconds: e.WEBHOOK_DISABLE_AFTER_SECONDS,
    timeoutMs: e.WEBHOOK_TIMEOUT_SECONDS * 1000,
  };
}

const short = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function duration(seconds: number): string {
  if (seconds >= 3600) return `${Math.round((seconds / 3600) * 10) / 10} h`;
  if (seconds >= 60) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds * 10) / 10} s`;
}

/**
 * Works the `webhook-delivery` queue (queue.ts): one attempt per job, signed (sign.ts), through the http node's
 * SSRF-checked client (pinned to the checked address, no redirects) with a timeout (WEBHOOK_TIMEOUT_SECONDS, 10 s),
 * so a slow endpoint holds one of this worker's slots for at most that and never the loop.
 *
 * - A 2xx delivers it; anything else (another status, a timeout, a refused destination) is a failed attempt,
 *   retried after WEBHOOK_RETRY_BASE_SECONDS (30 s), doubling, at most a fifth of WEBHOOK_DISABLE_AFTER_SECONDS,
 *   until the delivery is that old (a day: 14 attempts), then `failed`. Every attempt carries the same
 *   `webhook-id`: at-least-once.
 * - An endpoint whose attempts all failed for WEBHOOK_DISABLE_AFTER_SECONDS (its `failingSince`, cleared by a
 *   success) is disabled with the reason, and its pending deliveries fail.
 * - Order per endpoint where it can: a delivery waits while an earlier one of its endpoint was never tried, and an
 *   instance tries one delivery of an endpoint at a time; retries do not hold back later deliveries (one bad message
 *   never stops the stream), so a delivery that needed a retry arrives after later ones.
 * - Deliveries without a job (created where no queue ran, or a crash between two writes) are found by a sweep at
 *   start and every 30 s.
 */
export class WebhookWorker {
  private readonly db: Db;
  private readonly boss: PgBoss;
  private readonly slots: number;
  private readonly pollMs: number;
  private readonly log: (m: string) => void;
  private readonly inflight = new Map<string, Promise<void>>();
  private readonly busyEndpoints = new Set<string>();
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private readonly idle = new IdleWait();
  private lastSweep = 0;
  /** attempts finished by this instance (tests) */
  processed = 0;

  private constructor(opts: WebhookWorkerOptions) {
    this.db = opts.db;
    this.boss = opts.boss;
    this.slots = opts.slots ?? 8;
    this.pollMs = opts.pollMs ?? 500;
    this.log = opts.log ?? ((m) => console.log(`[flowbench] webhooks: ${m}`));
  }

  /** Starts the worker on a started pg-boss whose queues are installed (the eval queue's). */
  static start(opts: WebhookWorkerOptions): WebhookWorker {
    const w = new WebhookWorker(opts);
    attachWebhookQueue(opts.boss, () => w.wake());
    w.loopDone = w.loop();
    return w;
  }

  private wake() {
    this.idle.wake();
  }

  private sleep(ms: number): Promise<void> {
    return this.idle.sleep(ms);
  }

  private sql() {
    return this.boss.getDb() as unknown as { executeSql(text: string, values?: unknown[]): Promise<unknown> };
  }

  /** Hands a job back untouched, fetchable again after `seconds` (its retries not counted). */
  private async release(jobId: string, seconds: number): Promise<void> {
    await this.sql().executeSql(
      `UPDATE pgboss.job SET state = 'created', started_on = NULL, start_after = now() + make_interval(secs => $3::float8) WHERE name = $1 AND id = $2::uuid AND state = 'active'`,
      [WEBHOOK_QUEUE, jobId, seconds],
    );
  }

  private async sweep(): Promise<void> {
    if (Date.now() - this.lastSweep < 30_000) return;
    this.lastSweep = Date.now();
    const overdue = await overdueDeliveries(this.db, 30);
    if (overdue.length)
      await enqueueAttempts(
        overdue.map((d) => ({ deliveryId: d.id, endpointId: d.endpointId, seq: d.seq, attempt: d.attempts })),
        this.boss,
      );
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let fetched = 0;
      try {
        await this.sweep();
        const free = this.slots - this.inflight.size;
        if (free > 0) {
          const jobs = await this.boss.fetch<DeliveryJob>(WEBHOOK_QUEUE, { batchSize: free });
          fetched = jobs.length;
          // pg-boss answers a batch in no particular order (UPDATE ... RETURNING): take it in the deliveries' order,
          // so an endpoint's earliest delivery is the one launched and the later ones go back to wait for it
          jobs.sort((a, b) => (a.data.seq ?? 0) - (b.data.seq ?? 0));
          for (const job of jobs) {
            if (this.stopping) await this.release(job.id, 0);
            else this.launch(job);
          }
        }
      } catch (e) {
        if (!this.stopping) this.log(`worker loop error: ${(e as Error).message}`);
      }
      if (this.stopping) break;
      if (fetched > 0 || this.inflight.size > 0) this.idle.busy(); // IdleWait: polls less often only when quiet
      if (fetched === 0 || this.inflight.size >= this.slots) await this.sleep(this.pollMs);
    }
  }

  private launch(job: PgBoss.Job<DeliveryJob>) {
    const endpointId = job.data.endpointId;
    if (this.busyEndpoints.has(endpointId)) {
      // this instance is sending to the endpoint: one at a time, in order
      void this.release(job.id, this.pollMs / 1000).catch((e: Error) =>
        this.log(`could not hand back a job: ${e.message}`),
      );
      return;
    }
    this.busyEndpoints.add(endpointId);
    const p = (async () => {
      try {
        const outcome = await this.attempt(job.data);
        if (outcome === "wait") await this.release(job.id, this.pollMs / 1000);
        else await this.boss.complete(WEBHOOK_QUEUE, job.id);
      } catch (e) {
        this.log(`delivery ${job.data.deliveryId} attempt failed to run: ${(e as Error).message}`);
        await this.boss.fail(WEBHOOK_QUEUE, job.id, { message: (e as Error).message }).catch(() => undefined);
      } finally {
        this.busyEndpoints.delete(endpointId);
        this.processed++;
        this.inflight.delete(job.id);
        this.wake();
      }
    })();
    this.inflight.set(job.id, p);
  }

  /** One attempt of a delivery; "wait" when it must let an earlier delivery of its endpoint go first. */
  private async attempt(job: DeliveryJob): Promise<"done" | "wait"> {
    const d = await this.db.webhookDelivery.findUnique({
      where: { id: job.deliveryId },
      include: { endpoint: { select: { id: true, url: true, secret: true, enabled: true, failingSince: true } } },
    });
    if (!d || d.status !== "pending" || d.attempts !== job.attempt) return "done"; // settled, or a stale job
    const endpoint = d.endpoint;
    if (!endpoint.enabled) {
      await this.db.webhookDelivery.update({
        where: { id: d.id },
        data: { status: "failed", nextAttemptAt: null, lastError: "the endpoint is disabled" },
      });
      return "done";
    }
    const earlier = await this.db.webhookDelivery.findFirst({
      where: { endpointId: endpoint.id, status: "pending", attempts: 0, seq: { lt: d.seq } },
      select: { id: true },
    });
    if (earlier) return "wait";
    return this.send(d, endpoint);
  }

  private async send(
    d: {
      id: string;
      seq: bigint;
      event: string;
      payload: string;
      attempts: number;
      createdAt: Date;
      firstAttemptAt: Date | null;
    },
    endpoint: { id: string; url: string; secret: string; failingSince: Date | null },
  ): Promise<"done"> {
    {
      const s = settings();
      const timestamp = Math.floor(Date.now() / 1000);
      let code: number | null = null;
      let error: string | null = null;
      try {
        const res = await safeRequest(
          {
            method: "POST",
            url: endpoint.url,
            headers: {
              ...signedHeaders(endpoint.secret, d.id, timestamp, d.payload),
              "user-agent": "flowbench-webhooks",
            },
            body: d.payload,
            timeoutMs: s.timeoutMs,
          },
          webhookPolicy(),
        );
        code = res.status;
        if (code < 200 || code >= 300) error = `the endpoint answered ${code}`;
      } catch (e) {
        error = short((e as Error)?.message ?? String(e));
      }
      const now = new Date();
      const attempts = d.attempts + 1;
      const counter = metrics().webhookDeliveries;
      if (error === null) {
        // the endpoint's row first, in the order a delete takes them (the endpoint, then its deliveries by the cascade)
        await this.db.$transaction([
          this.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: null } }),
          this.db.webhookDelivery.update({
            where: { id: d.id },
            data: {
              status: "delivered",
              attempts,
              responseCode: code,
              lastError: null,
              firstAttemptAt: d.firstAttemptAt ?? now,
              lastAttemptAt: now,
              nextAttemptAt: null,
              deliveredAt: now,
            },
          }),
        ]);
        counter.inc({ event: d.event, outcome: "delivered" });
        return "done";
      }
      const failingSince = endpoint.failingSince ?? now;
      if (!endpoint.failingSince)
        await this.db.webhookEndpoint.updateMany({
          where: { id: endpoint.id, failingSince: null },
          data: { failingSince: now },
        });
      const failedFor = (now.getTime() - failingSince.getTime()) / 1000;
      const next = new Date(now.getTime() + retryDelaySeconds(attempts, s.baseSeconds, s.windowSeconds) * 1000);
      const givingUp = next.getTime() - d.createdAt.getTime() > s.windowSeconds * 1000;
      // failing for the window, or this delivery's whole retry window failed while nothing else got through
      const firstAttempt = d.firstAttemptAt ?? now;
      if (failedFor >= s.windowSeconds || (givingUp && failingSince.getTime() <= firstAttempt.getTime())) {
        const reason = short(
          `Disabled ${now.toISOString()}: every delivery failed for ${duration(failedFor)} (since ${failingSince.toISOString()}); the last attempt: ${error}`,
          500,
        );
        // the endpoint's row first, as deleting an endpoint takes it (then its deliveries, by the cascade): the other
        // order deadlocked with a DELETE /webhooks/{id} on PostgreSQL (500 P2034 in a fresh-clone run)
        await this.db.$transaction([
          this.db.webhookEndpoint.update({
            where: { id: endpoint.id },
            data: { enabled: false, disabledAt: now, disabledReason: reason },
          }),
          this.db.webhookDelivery.update({
            where: { id: d.id },
            data: {
              status: "failed",
              attempts,
              responseCode: code,
              lastError: error,
              firstAttemptAt: firstAttempt,
              lastAttemptAt: now,
              nextAttemptAt: null,
            },
          }),
          this.db.webhookDelivery.updateMany({
            where: { endpointId: endpoint.id, status: "pending", id: { not: d.id } },
            data: { status: "failed", nextAttemptAt: null, lastError: "the endpoint was disabled" },
          }),
        ]);
        this.log(`endpoint ${endpoint.id} disabled after failing for ${duration(failedFor)}`);
        counter.inc({ event: d.event, outcome: "endpoint_disabled" });
        return "done";
      }
      await this.db.webhookDelivery.update({
        where: { id: d.id },
        data: {
          status: givingUp ? "failed" : "pending",
          attempts,
          responseCode: code,
          lastError: givingUp ? short(`gave up after ${attempts} attempts: ${error}`) : error,
          firstAttemptAt: firstAttempt,
          lastAttemptAt: now,
          nextAttemptAt: givingUp ? null : next,
        },
      });
      if (!givingUp)
        await enqueueAttempts(
          [{ deliveryId: d.id, endpointId: endpoint.id, seq: d.seq, attempt: attempts, at: next }],
          this.boss,
        );
      counter.inc({ event: d.event, outcome: givingUp ? "failed" : "retrying" });
      return "done";
    }
  }

  /** Stops fetching and waits (at most the attempt timeout and a little) for attempts in flight. */
  async stop(): Promise<void> {
    this.stopping = true;
    detachWebhookQueue(this.boss);
    this.wake();
    await this.loopDone?.catch(() => undefined);
    await Promise.race([
      Promise.allSettled([...this.inflight.values()]),
      new Promise((r) => setTimeout(r, settings().timeoutMs + 1000)),
    ]);
  }

  get inflightCount(): number {
    return this.inflight.size;
  }
}
