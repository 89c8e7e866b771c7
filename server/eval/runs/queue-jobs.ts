import { createHash } from "node:crypto";
import type PgBoss from "pg-boss";
import { openPglite } from "../../db/adapters";
import { LOCKS, withStartupLock } from "../../db/locks";
import type { Db } from "../../db/client";
import type { DatabaseTarget } from "../../db/url";
import { WEBHOOK_QUEUE, WEBHOOK_QUEUE_SETTINGS } from "../../webhooks/queue";
import type { JudgeSpecT } from "../suggestions/schemas";

/** The queue's jobs and where pg-boss keeps them: queue names, the job shape, stable job ids, the connection. */
export const EVAL_QUEUE = "eval-item";
export const SHADOW_QUEUE = "eval-shadow";
export const SCHEMA = "pgboss";

/**
 * answer / judge: an item of a run (queue eval-item). shadow: the intent shadow of one online chat (shadow/jobs.ts; queue
 * eval-shadow), with runId `shadow:<agentId>` and itemId the trace id.
 */
export type EvalJob = {
  kind: "answer" | "judge" | "shadow";
  runId: string;
  itemId: string;
  /** judge jobs of a re-judging with another judge than the run's (its suggestion goes to otherSuggestions) */
  judge?: JudgeSpecT;
  /** judge jobs of a judge comparison (EvalJob id): each one judged (or given up) counts in its progress */
  compare?: string;
};

/**
 * What a judge comparison does when one of its judge jobs is done (its progress, then the switch decision when it was
 * the last): server/eval/reports/judge-comparison.ts, a floor above this one, hands it here when it loads (server
 * start-up loads it before the worker starts). On globalThis, like the queue, so every bundle of the server sees it.
 */
export type ComparisonStep = (db: Db, comparisonId: string, itemId: string) => Promise<void>;
const stepGlobals = globalThis as typeof globalThis & { __flowbenchComparisonStep?: ComparisonStep };
export function registerComparisonStep(step: ComparisonStep): void {
  stepGlobals.__flowbenchComparisonStep = step;
}
export async function comparisonStep(db: Db, comparisonId: string, itemId: string): Promise<void> {
  const step = stepGlobals.__flowbenchComparisonStep;
  // not loaded yet: the job fails and pg-boss retries it shortly (its item is judged again; counted once)
  if (!step) throw new Error("the judge comparison is not loaded in this process yet");
  await step(db, comparisonId, itemId);
}
export const queueNameOf = (kind: EvalJob["kind"]) => (kind === "shadow" ? SHADOW_QUEUE : EVAL_QUEUE);
export type RunQueue = {
  enqueue(items: EvalJob[]): Promise<void>;
  cancelItems(itemIds: string[]): Promise<void>;
  abortRun(runId: string): void;
};

/** A stable UUID per answer job, so enqueuing the same item twice inserts one job. */
export function answerJobId(itemId: string): string {
  const h = createHash("sha256").update(`eval-answer:${itemId}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export type SqlResult = { rows: Array<Record<string, unknown>> };
export type ExecSql = { executeSql(text: string, values?: unknown[]): Promise<SqlResult> };

/**
 * pg-boss's database for a target: its own small pool on a server, the shared PGlite instance when embedded.
 *
 * Embedded PGlite: pg-boss runs in the server process on the SAME PGlite instance as Prisma, through pg-boss's
 * `db: { executeSql }` option (parameterised statements go through `query`, pg-boss's multi-statement scripts
 * through `exec`). PGlite serialises every statement and transaction of the process, so SKIP LOCKED and
 * pg-boss's advisory locks behave as on a single-connection server. No second process can open the folder.
 */
export async function bossConnection(target: DatabaseTarget): Promise<PgBoss.DatabaseOptions> {
  if (target.kind === "postgresql") return { connectionString: target.url, max: 4, application_name: "flowbench-eval" };
  const pg = await openPglite(target.dataDir);
  const db: ExecSql = {
    async executeSql(text, values) {
      if (values?.length) return (await pg.query(text, values)) as SqlResult;
      const results = await pg.exec(text);
      return (results.at(-1) ?? { rows: [] }) as SqlResult;
    },
  };
  return { db: db as PgBoss.Db };
}

/** A job this worker runs: `since` (ms) is when it started, for the job heartbeat's item-timeout bound. */
export type Inflight = { runId: string; abort: AbortController; promise: Promise<void>; since: number };

export type EvalQueueOptions = {
  db: Db;
  target: DatabaseTarget;
  /** start the worker (fetch and answer); false = send-only (enqueue, cancel) */
  worker?: boolean;
  /** slots while no answering run is known (judge jobs); answering runs set them to their largest concurrency */
  concurrency?: number;
  pollMs?: number;
  itemTimeoutSeconds?: number;
  /** fail jobs left active by a dead process at start (safe only when no other process shares the database) */
  recoverActive?: boolean;
  /** a worker's lease on an item it answers (default EVAL_LIMITS.workerLeaseSeconds) */
  leaseSeconds?: number;
  log?: (message: string) => void;
};

/** Installs pg-boss's schema, both queues and the webhooks' delivery queue (with their retry and expiry settings). */
export async function installQueues(boss: PgBoss, target: DatabaseTarget, itemTimeoutSeconds: number): Promise<void> {
  const settings = {
    retryLimit: 10,
    retryDelay: 1,
    expireInSeconds: itemTimeoutSeconds,
    retentionMinutes: 60 * 24 * 7,
  };
  // pg-boss installs its schema and queue at start; two instances doing it at the same moment deadlock, so on a
  // server they take turns under an advisory lock
  await withStartupLock(target, LOCKS.evalQueueStart, async () => {
    await boss.start();
    for (const name of [EVAL_QUEUE, SHADOW_QUEUE]) {
      await boss.createQueue(name, { name, policy: "standard", ...settings });
      await boss.updateQueue(name, { name, policy: "standard", ...settings });
    }
    // the signed webhooks' deliveries (server/webhooks/queue.ts): worked beside this queue's jobs
    await boss.createQueue(WEBHOOK_QUEUE, { name: WEBHOOK_QUEUE, policy: "standard", ...WEBHOOK_QUEUE_SETTINGS });
    await boss.updateQueue(WEBHOOK_QUEUE, { name: WEBHOOK_QUEUE, policy: "standard", ...WEBHOOK_QUEUE_SETTINGS });
  });
}

/** What waits in each queue and what is being worked on: jobs by state, and the age of the oldest waiting one. */
export type QueueDepth = { queue: string; waiting: number; active: number; oldestWaitingSeconds: number };

/**
 * Every queue's depth, read from pg-boss's job table (GET /api/metrics). Empty before the worker has installed the
 * queue's schema (a fresh database whose start-up is still under way).
 */
export async function queueDepths(db: Db): Promise<QueueDepth[]> {
  let rows: Array<{ name: string; waiting: number; active: number; age: number | null }>;
  try {
    rows = await db.$queryRawUnsafe(
      `SELECT name,
         count(*) FILTER (WHERE state IN ('created', 'retry'))::int AS waiting,
         count(*) FILTER (WHERE state = 'active')::int AS active,
         EXTRACT(EPOCH FROM now() - min(created_on) FILTER (WHERE state IN ('created', 'retry')))::float8 AS age
       FROM ${SCHEMA}.job WHERE state IN ('created', 'retry', 'active') GROUP BY name`,
    );
  } catch (e) {
    // before the worker installed the queue's schema; anything else is a real failure and reaches the scrape
    if (/pgboss\.job.* does not exist|schema "pgboss" does not exist/.test(String(e))) return [];
    throw e;
  }
  const found = new Map(rows.map((r) => [r.name, r]));
  return [
    EVAL_QUEUE,
    SHADOW_QUEUE,
    ...rows.map((r) => r.name).filter((n) => n !== EVAL_QUEUE && n !== SHADOW_QUEUE),
  ].map((queue) => {
    const r = found.get(queue);
    return {
      queue,
      waiting: r?.waiting ?? 0,
      active: r?.active ?? 0,
      oldestWaitingSeconds: Math.max(0, r?.age ?? 0),
    };
  });
}
