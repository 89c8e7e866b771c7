import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import PgBoss from "pg-boss";
import type { Db } from "../db/client";
import { openPglite } from "../db/adapters";
import { databaseTarget } from "../db/client";
import { LOCKS, withStartupLock } from "../db/locks";
import type { DatabaseTarget } from "../db/url";
import { env } from "../core/env";
import type { Workflow } from "../workflow";
import { answerItem, giveUpItem, loadRunContext, type RunContext } from "./answer-item";
import { judgeStoredItem } from "./judging";
import { SHADOW_LIMITS, shadowTrace } from "./shadow";
import { EVAL_LIMITS } from "./limits";

/**
 * The durable answering queue: pg-boss 10 over PostgreSQL. One queue (`eval-item`), one job per item to answer
 * (or, with the LLM judge, to judge), stored in the database (schema `pgboss`), so several app instances on one
 * PostgreSQL server share a run's items (pg-boss fetches with FOR UPDATE SKIP LOCKED).
 *
 * Embedded PGlite: pg-boss runs in the server process on the SAME PGlite instance as Prisma, through pg-boss's
 * `db: { executeSql }` option (parameterised statements go through `query`, pg-boss's multi-statement scripts
 * through `exec`). PGlite serialises every statement and transaction of the process, so SKIP LOCKED and
 * pg-boss's advisory locks behave as on a single-connection server. No second process can open the folder.
 *
 * Transport only: answering one item (claim with a fencing token, write-back, give-up) is answer-item.ts, re-judging a
 * stored answer is judging.ts. Answer jobs have deterministic ids (from the item id), so enqueuing an item twice is
 * a no-op.
 *
 * Restarts: a graceful stop lets in-flight items finish (EvalQueue.stop drainMs), then aborts what is left, puts
 * those items back to pending and fails their jobs (pg-boss retries them). At start the worker sweeps: in embedded mode any job still `active` belonged to a dead
 * process (only one process can open the folder) and is failed at once (-> retry); on a PostgreSQL server such
 * jobs are retried by pg-boss after their expiry (EVAL_ITEM_TIMEOUT_SECONDS). Then every unfinished item of an
 * answering run gets a live job again (missing -> inserted, failed -> retried, cancelled -> resumed).
 *
 * Concurrency: a run answers at most `run.concurrency` items at once IN TOTAL across the instances (default
 * EVAL_CONCURRENCY = 4; it exists to respect a model provider's limits): the claim counts live leases under the run's
 * row lock and answers "busy" at the limit; a busy job waits in this worker and is tried again after pollMs. Each
 * worker's slots are the largest concurrency among answering runs.
 *
 * The intent shadow's jobs (kind `shadow`) have a queue of their own (`eval-shadow`): background work that must never
 * slow online chat. A worker runs at most SHADOW_LIMITS.inFlightPerInstance of them at once, never in the slots an
 * evaluation run needs, and each waits for a quiet event loop first (utilisation under SHADOW_LIMITS.idleUtilization
 * over SHADOW_LIMITS.idleWindowMs, at most SHADOW_LIMITS.idleWaitMs): on a busy instance the shadow falls behind
 * instead of delaying answers (embedded PGlite runs every query on the server's own thread).
 *
 * Dead workers: an item being answered carries its worker's lease (EVAL_LIMITS.workerLeaseSeconds, 30 s, renewed
 * every 10 s). Every worker sweeps about every third of a lease: items of answering runs whose lease expired go back to
 * pending and their still-active jobs are failed for retry, so another instance takes them within about 30-40 s
 * instead of waiting for the job's expiry (EVAL_ITEM_TIMEOUT_SECONDS, which still bounds an item that hangs).
 */
export const EVAL_QUEUE = "eval-item";
export const SHADOW_QUEUE = "eval-shadow";
const SCHEMA = "pgboss";

/**
 * answer / judge: an item of a run (queue eval-item). shadow: the intent shadow of one online chat (shadow.ts; queue
 * eval-shadow), with runId `shadow:<agentId>` and itemId the trace id.
 */
export type EvalJob = { kind: "answer" | "judge" | "shadow"; runId: string; itemId: string };
const queueOf = (kind: EvalJob["kind"]) => (kind === "shadow" ? SHADOW_QUEUE : EVAL_QUEUE);
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

type SqlResult = { rows: Array<Record<string, unknown>> };
type ExecSql = { executeSql(text: string, values?: unknown[]): Promise<SqlResult> };

/** pg-boss's database for a target: its own small pool on a server, the shared PGlite instance when embedded. */
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

type Inflight = { runId: string; abort: AbortController; promise: Promise<void> };

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

export class EvalQueue implements RunQueue {
  readonly boss: PgBoss;
  private readonly db: Db;
  private readonly opts: Required<Omit<EvalQueueOptions, "db" | "target" | "log">> & { log: (m: string) => void };
  private readonly inflight = new Map<string, Inflight>();
  private readonly runCtx = new Map<string, RunContext>();
  private readonly workflows = new Map<string, Workflow>();
  private stopping = false;
  private crashed = false;
  private loopDone: Promise<void> | null = null;
  private wakeFn: (() => void) | null = null;
  private slots: number;
  private lastCheck = 0;
  private lastSweep = 0;
  /** the event loop's utilisation when the shadow last looked (whenIdle) */
  private eluMark = performance.eventLoopUtilization();
  /** executions finished (any outcome) by this instance, for tests and the benchmark */
  processed = 0;

  private constructor(db: Db, connection: PgBoss.DatabaseOptions, opts: EvalQueueOptions) {
    this.db = db;
    const e = env();
    this.opts = {
      worker: opts.worker ?? true,
      concurrency: opts.concurrency ?? e.EVAL_CONCURRENCY,
      pollMs: opts.pollMs ?? 500,
      itemTimeoutSeconds: opts.itemTimeoutSeconds ?? e.EVAL_ITEM_TIMEOUT_SECONDS,
      recoverActive: opts.recoverActive ?? opts.target.kind === "pglite",
      leaseSeconds: opts.leaseSeconds ?? EVAL_LIMITS.workerLeaseSeconds,
      log: opts.log ?? ((m) => console.log(`[flowbench] eval queue: ${m}`)),
    };
    this.slots = this.opts.concurrency;
    this.boss = new PgBoss({
      ...connection,
      schema: SCHEMA,
      schedule: false,
      supervise: true,
      migrate: true,
      maintenanceIntervalSeconds: opts.target.kind === "pglite" ? 60 : 30,
    });
    this.boss.on("error", (err: Error) => this.opts.log(`pg-boss error: ${err.message}`));
  }

  static async start(opts: EvalQueueOptions): Promise<EvalQueue> {
    const q = new EvalQueue(opts.db, await bossConnection(opts.target), opts);
    const settings = {
      retryLimit: 10,
      retryDelay: 1,
      expireInSeconds: q.opts.itemTimeoutSeconds,
      retentionMinutes: 60 * 24 * 7,
    };
    // pg-boss installs its schema and queue at start; two instances doing it at the same moment deadlock, so on a
    // server they take turns under an advisory lock
    await withStartupLock(opts.target, LOCKS.evalQueueStart, async () => {
      await q.boss.start();
      for (const name of [EVAL_QUEUE, SHADOW_QUEUE]) {
        await q.boss.createQueue(name, { name, policy: "standard", ...settings });
        await q.boss.updateQueue(name, { name, policy: "standard", ...settings });
      }
    });
    if (q.opts.worker) {
      await q.recover();
      q.loopDone = q.loop();
    }
    return q;
  }

  /** pg-boss accepts output data with several ids; its typings only declare it for one. */
  private async failJobs(ids: string[], message: string, queue = EVAL_QUEUE): Promise<void> {
    await (this.boss as unknown as { fail(name: string, ids: string[], data: object): Promise<unknown> }).fail(
      queue,
      ids,
      { message },
    );
  }

  private sql(): ExecSql {
    return this.boss.getDb() as unknown as ExecSql;
  }

  // ------------------------------------------------------------ sending

  async enqueue(items: EvalJob[]): Promise<void> {
    for (let i = 0; i < items.length; i += 1000) {
      const chunk = items.slice(i, i + 1000);
      await this.boss.insert(
        chunk.map((j) => ({
          name: queueOf(j.kind),
          data: j,
          ...(j.kind === "answer" ? { id: answerJobId(j.itemId) } : {}),
        })),
      );
    }
    this.wake();
  }

  async cancelItems(itemIds: string[]): Promise<void> {
    for (let i = 0; i < itemIds.length; i += 1000) {
      const ids = itemIds.slice(i, i + 1000).map(answerJobId);
      if (ids.length) await this.boss.cancel(EVAL_QUEUE, ids);
    }
  }

  abortRun(runId: string): void {
    for (const f of this.inflight.values()) if (f.runId === runId) f.abort.abort(new Error("the run was cancelled"));
  }

  // ------------------------------------------------------------ recovery

  /** See the class comment: fail orphaned active jobs (embedded only), then give every unfinished item a live job. */
  async recover(): Promise<{ failedActive: number; inserted: number; retried: number }> {
    const sql = this.sql();
    let failedActive = 0;
    if (this.opts.recoverActive) {
      for (const queue of [EVAL_QUEUE, SHADOW_QUEUE]) {
        const { rows } = await sql.executeSql(`SELECT id FROM ${SCHEMA}.job WHERE name = $1 AND state = 'active'`, [
          queue,
        ]);
        const ids = rows.map((r) => String(r.id));
        if (ids.length) {
          await this.failJobs(ids, "the process running this job stopped; it is retried", queue);
          failedActive += ids.length;
        }
      }
      // nobody is answering anything yet in this (the only) process: items a dead process was answering are pending
      await this.db.evalRunItem.updateMany({
        where: { status: "answering", run: { status: "answering", mode: "in_platform" } },
        data: { status: "pending" },
      });
    }
    const items = await this.db.evalRunItem.findMany({
      where: { status: { in: ["pending", "answering"] }, run: { status: "answering", mode: "in_platform" } },
      select: { id: true, runId: true },
    });
    let inserted = 0;
    let retried = 0;
    for (let i = 0; i < items.length; i += 500) {
      const chunk = items.slice(i, i + 500);
      const ids = chunk.map((c) => answerJobId(c.id));
      const { rows } = await sql.executeSql(
        `SELECT id::text AS id, state::text AS state FROM ${SCHEMA}.job WHERE name = $1 AND id = ANY($2::uuid[])`,
        [EVAL_QUEUE, ids],
      );
      const state = new Map(rows.map((r) => [String(r.id), String(r.state)]));
      const missing: EvalJob[] = [];
      const failed: string[] = [];
      const cancelled: string[] = [];
      const completed: string[] = [];
      chunk.forEach((c, j) => {
        const s = state.get(ids[j]!);
        if (s === undefined) missing.push({ kind: "answer", runId: c.runId, itemId: c.id });
        else if (s === "failed") failed.push(ids[j]!);
        else if (s === "cancelled") cancelled.push(ids[j]!);
        else if (s === "completed") {
          completed.push(ids[j]!);
          missing.push({ kind: "answer", runId: c.runId, itemId: c.id });
        }
      });
      if (failed.length) await this.boss.retry(EVAL_QUEUE, failed);
      if (cancelled.length) await this.boss.resume(EVAL_QUEUE, cancelled);
      if (completed.length) await this.boss.deleteJob(EVAL_QUEUE, completed);
      if (missing.length) await this.enqueue(missing);
      inserted += missing.length;
      retried += failed.length + cancelled.length;
    }
    if (failedActive || inserted || retried)
      this.opts.log(
        `recovered: ${failedActive} orphaned job(s) failed for retry, ${retried} retried, ${inserted} re-enqueued`,
      );
    return { failedActive, inserted, retried };
  }

  // ------------------------------------------------------------ worker loop

  private wake() {
    const f = this.wakeFn;
    this.wakeFn = null;
    f?.();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.wakeFn = null;
        resolve();
      }, ms);
      this.wakeFn = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  private runningFor(runId: string): number {
    let n = 0;
    for (const f of this.inflight.values()) if (f.runId === runId) n++;
    return n;
  }

  private capOf(runId: string): number {
    return this.runCtx.get(runId)?.concurrency ?? this.opts.concurrency;
  }

  /** Every pollMs at most: the slots (largest concurrency of answering runs) and runs cancelled elsewhere. */
  private async housekeeping(): Promise<void> {
    if (Date.now() - this.lastCheck < this.opts.pollMs) return;
    this.lastCheck = Date.now();
    const rows = await this.db.$queryRaw<
      Array<{ max: number | null }>
    >`SELECT max("concurrency") AS max FROM "EvalRun" WHERE "status" = 'answering' AND "mode" = 'in_platform'`;
    const max = Number(rows[0]?.max ?? 0);
    this.slots = Math.min(EVAL_LIMITS.maxConcurrency, max > 0 ? max : this.opts.concurrency);
    await this.sweepExpiredLeases();
    const runIds = [...new Set([...this.inflight.values()].map((f) => f.runId))];
    if (runIds.length) {
      const stopped = await this.db.evalRun.findMany({
        where: { id: { in: runIds }, status: { in: ["cancelled", "failed"] } },
        select: { id: true },
      });
      for (const r of stopped) this.abortRun(r.id);
    }
  }

  /** Items whose worker stopped renewing its lease (the instance died) go back to pending; their jobs are retried. */
  async sweepExpiredLeases(force = false): Promise<number> {
    if (!force && Date.now() - this.lastSweep < (this.opts.leaseSeconds * 1000) / 3) return 0;
    this.lastSweep = Date.now();
    const freed = await this.db.$queryRaw<Array<{ id: string }>>`
      UPDATE "EvalRunItem" AS i SET "status" = 'pending', "leaseUntil" = NULL
      FROM "EvalRun" AS r
      WHERE r."id" = i."runId" AND r."status" = 'answering' AND r."mode" = 'in_platform'
        AND i."status" = 'answering' AND i."leaseUntil" <= (now() AT TIME ZONE 'UTC')
      RETURNING i."id"`;
    if (!freed.length) return 0;
    const jobIds = freed.map((f) => answerJobId(f.id));
    const { rows } = await this.sql().executeSql(
      `SELECT id::text AS id FROM ${SCHEMA}.job WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'`,
      [EVAL_QUEUE, jobIds],
    );
    const active = rows.map((r) => String(r.id)).filter((id) => !this.inflight.has(id));
    if (active.length) await this.failJobs(active, "the worker answering it stopped renewing its lease; it is retried");
    this.opts.log(
      `${freed.length} item(s) whose worker stopped renewing its lease are answered again (${active.length} job(s) retried)`,
    );
    this.wake();
    return freed.length;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let fetched = 0;
      await new Promise((r) => setImmediate(r));
      try {
        await this.housekeeping();
        const free = this.slots - this.inflight.size;
        if (free > 0) {
          const jobs = await this.boss.fetch<EvalJob>(EVAL_QUEUE, { batchSize: free, includeMetadata: true });
          fetched = jobs.length;
          if (this.stopping) {
            // stopped while fetching: hand the jobs back (a crashed process would leave them active)
            if (!this.crashed && jobs.length)
              await this.failJobs(
                jobs.map((j) => j.id),
                "the worker stopped before starting it",
              );
            break;
          }
          for (const job of jobs) {
            if (job.data.kind !== "shadow") await this.ensureRunCtx(job.data.runId).catch(() => undefined);
            if (this.runningFor(job.data.runId) < this.capOf(job.data.runId)) this.launch(job);
            else await this.release(job.id); // this instance already answers as many of its items as the run allows
          }
        }
        // the intent shadow: background work, a few at a time, in a slot no run is using
        if (
          !this.stopping &&
          this.shadowsInFlight() < SHADOW_LIMITS.inFlightPerInstance &&
          this.inflight.size < this.slots
        ) {
          const shadows = await this.boss.fetch<EvalJob>(SHADOW_QUEUE, {
            batchSize: SHADOW_LIMITS.inFlightPerInstance - this.shadowsInFlight(),
            includeMetadata: true,
          });
          fetched += shadows.length;
          for (const job of shadows) this.launch(job);
        }
      } catch (e) {
        if (!this.stopping) this.opts.log(`worker loop error: ${(e as Error).message}`);
      }
      if (this.stopping) break;
      if (
        fetched === 0 ||
        this.inflight.size >= this.slots ||
        this.shadowsInFlight() >= SHADOW_LIMITS.inFlightPerInstance
      )
        await this.sleep(this.opts.pollMs);
    }
  }

  private shadowsInFlight(): number {
    let n = 0;
    for (const f of this.inflight.values()) if (f.runId.startsWith("shadow:")) n++;
    return n;
  }

  /**
   * Background work waits for a quiet event loop (see the class comment), at most SHADOW_LIMITS.idleWaitMs. The
   * utilisation is read since the last look or the end of the last shadow job (so its own work does not count) when
   * that was half a window to four windows ago, otherwise over a fresh window.
   */
  private async whenIdle(): Promise<void> {
    const until = Date.now() + SHADOW_LIMITS.idleWaitMs;
    for (;;) {
      const since = performance.eventLoopUtilization(this.eluMark);
      const elapsed = since.idle + since.active;
      this.eluMark = performance.eventLoopUtilization();
      if (
        elapsed >= SHADOW_LIMITS.idleWindowMs / 2 &&
        elapsed <= 4 * SHADOW_LIMITS.idleWindowMs &&
        since.utilization < SHADOW_LIMITS.idleUtilization
      )
        return;
      if (this.stopping || Date.now() >= until) return;
      await new Promise((r) => setTimeout(r, SHADOW_LIMITS.idleWindowMs));
    }
  }

  /**
   * Hands a fetched job back to the queue untouched (its retries not counted), fetchable again after pollMs: a job
   * of a run at its concurrency limit is never held in a worker's memory, where a dying instance would strand it.
   */
  private async release(jobId: string): Promise<void> {
    await this.sql().executeSql(
      `UPDATE ${SCHEMA}.job SET state = 'created', started_on = NULL, start_after = now() + make_interval(secs => $3::float8) WHERE name = $1 AND id = $2::uuid AND state = 'active'`,
      [EVAL_QUEUE, jobId, this.opts.pollMs / 1000],
    );
  }

  private launch(job: PgBoss.JobWithMetadata<EvalJob>) {
    const abort = new AbortController();
    const entry: Inflight = { runId: job.data.runId, abort, promise: Promise.resolve() };
    this.inflight.set(job.id, entry);
    entry.promise = (async () => {
      try {
        // Embedded PGlite answers queries without real I/O, so a worker whose model is fast (the offline provider)
        // could chain promises for a whole run and starve the HTTP server: give the event loop a turn per item.
        await new Promise((r) => setImmediate(r));
        if (job.data.kind === "shadow") {
          await this.whenIdle();
          await shadowTrace(this.db, job.data.itemId, "live");
        } else if (job.data.kind === "judge") await this.processJudge(job.data);
        else if ((await this.processAnswer(job.data, abort.signal)) === "busy") {
          // the run is at its total concurrency (other instances answer its items): back to the queue, tried shortly
          if (!this.crashed) await this.release(job.id);
          return;
        }
        if (!this.crashed) await this.boss.complete(job.name, job.id);
      } catch (e) {
        if (this.crashed) return;
        const message = (e as Error).message ?? String(e);
        if (job.retryCount >= job.retryLimit) await this.giveUp(job.data, message).catch(() => undefined);
        await this.boss.fail(job.name, job.id, { message }).catch(() => undefined);
      } finally {
        // the next shadow job reads how busy the server was from here on, not this job's own work
        if (job.data.kind === "shadow") this.eluMark = performance.eventLoopUtilization();
        this.processed++;
        this.inflight.delete(job.id);
        if (!this.crashed) this.wake();
      }
    })();
  }

  private async giveUp(job: EvalJob, message: string) {
    if (job.kind === "answer") await giveUpItem(this.db, job, message);
  }

  private async ensureRunCtx(runId: string): Promise<RunContext> {
    const cached = this.runCtx.get(runId);
    if (cached) return cached;
    const ctx = await loadRunContext(this.db, runId, this.workflows);
    if (this.runCtx.size > 200) this.runCtx.delete(this.runCtx.keys().next().value as string);
    this.runCtx.set(runId, ctx);
    return ctx;
  }

  private async processAnswer(job: EvalJob, signal: AbortSignal): Promise<"done" | "busy"> {
    return answerItem(this.db, job, (runId) => this.ensureRunCtx(runId), {
      signal,
      alive: () => !this.crashed,
      leaseSeconds: this.opts.leaseSeconds,
    });
  }

  private async processJudge(job: EvalJob): Promise<void> {
    const run = await this.db.evalRun.findUnique({
      where: { id: job.runId },
      select: { tier: true, setVersion: { select: { assertions: true } } },
    });
    if (run)
      await judgeStoredItem(
        this.db,
        job.itemId,
        { tier: run.tier, setAssertions: run.setVersion.assertions },
        undefined,
      );
  }

  // ------------------------------------------------------------ stopping

  /**
   * graceful (default): stop fetching, let in-flight items finish for up to `drainMs` (default 10 s), then abort
   * the rest (their items go back to pending and their jobs are retried by the next worker), stop pg-boss.
   * `crash: true` (tests) simulates the process dying: in-flight executions are cut off and nothing more is
   * written; their jobs stay active until a new worker recovers them.
   */
  async stop(opts: { crash?: boolean; drainMs?: number; timeoutMs?: number } = {}): Promise<void> {
    this.stopping = true;
    if (opts.crash) this.crashed = true;
    this.wake();
    await this.loopDone?.catch(() => undefined); // no job is launched after this
    const settled = () => Promise.allSettled([...this.inflight.values()].map((f) => f.promise));
    if (!opts.crash && this.inflight.size)
      await Promise.race([settled(), new Promise((r) => setTimeout(r, opts.drainMs ?? 10_000))]);
    for (const f of this.inflight.values()) f.abort.abort(new Error("the worker is stopping"));
    await Promise.race([settled(), new Promise((r) => setTimeout(r, opts.timeoutMs ?? 15_000))]);
    await this.boss.stop({ graceful: false, close: true, wait: true });
    if (globals.__flowbenchEvalQueue === this) globals.__flowbenchEvalQueue = undefined;
  }

  get inflightCount(): number {
    return this.inflight.size;
  }
}

// ---------------------------------------------------------------- process singleton

type Globals = { __flowbenchEvalQueue?: EvalQueue; __flowbenchEvalQueueStarting?: Promise<EvalQueue> };
const globals = globalThis as typeof globalThis & Globals;

/** Makes `queue` the process's queue (the server's worker, or a test's). */
export function registerEvalQueue(queue: EvalQueue | undefined): void {
  globals.__flowbenchEvalQueue = queue;
  globals.__flowbenchEvalQueueStarting = undefined;
}

/** The process's queue; when none was started (a process without the worker) a send-only one is started. */
export async function getEvalQueue(db: Db): Promise<EvalQueue> {
  if (globals.__flowbenchEvalQueue) return globals.__flowbenchEvalQueue;
  globals.__flowbenchEvalQueueStarting ??= EvalQueue.start({ db, target: databaseTarget(), worker: false }).then(
    (q) => {
      globals.__flowbenchEvalQueue = q;
      return q;
    },
  );
  return globals.__flowbenchEvalQueueStarting;
}

/** Server start-up: the worker, in the server process, after migrations. */
export async function startEvalWorker(db: Db, target: DatabaseTarget = databaseTarget()): Promise<EvalQueue> {
  const q = await EvalQueue.start({ db, target, worker: true });
  registerEvalQueue(q);
  return q;
}
