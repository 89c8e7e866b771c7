import PgBoss from "pg-boss";
import type { Db } from "../../db/client";
import { env } from "../../core/env";
import type { Workflow } from "../../workflow";
import { answerItem, giveUpItem, loadRunContext, type RunContext } from "./answer-item";
import { judgeStoredItem } from "../suggestions/judging";
import { judgeKey, resolveJudge } from "../suggestions/judge-agent";
import { SHADOW_LIMITS } from "../shadow/schemas";
import { shadowTrace } from "../shadow/intent";
import { EVAL_LIMITS } from "../limits";
import { type QueueInternals, failStaleJobs, freeExpiredLeases, recoverJobs } from "./queue-recovery";
import {
  EVAL_QUEUE,
  type EvalJob,
  type EvalQueueOptions,
  type ExecSql,
  type Inflight,
  type RunQueue,
  SCHEMA,
  SHADOW_QUEUE,
  answerJobId,
  bossConnection,
  comparisonStep,
  installQueues,
  queueNameOf,
} from "./queue-jobs";
import { QuietLoop } from "./quiet-loop";
import { WebhookWorker } from "../../webhooks/worker";
import { inSpan } from "../../telemetry/tracing";
import { attachWebhookQueue, detachWebhookQueue } from "../../webhooks/queue";
import { IdleWait } from "../../core/idle";

/**
 * The durable answering queue: pg-boss 10 over PostgreSQL. One queue (`eval-item`), one job per item to answer
 * (or, with the LLM judge, to judge), stored in the database (schema `pgboss`), so several app instances on one
 * PostgreSQL server share a run's items (pg-boss fetches with FOR UPDATE SKIP LOCKED).
 *
 * Transport only: answering one item (claim with a fencing token, write-back, give-up) is answer-item.ts, re-judging a
 * stored answer is judging.ts. Answer jobs have deterministic ids (from the item id), so enqueuing an item twice is
 * a no-op.
 *
 * Restarts: a graceful stop lets in-flight items finish (EvalQueue.stop drainMs), then aborts what is left, puts
 * those items back to pending and fails their jobs (pg-boss retries them); at start the worker recovers
 * (queue-recovery.ts).
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
 * every 10 s); expired leases are swept (queue-recovery.ts), so another instance takes the item within about 30-40 s
 * instead of waiting for the job's expiry (EVAL_ITEM_TIMEOUT_SECONDS, which still bounds an item that hangs). Every
 * job a worker holds is seen too (the job heartbeat renews its `started_on` every third of a lease, for at most the
 * item timeout): a job still active but not seen for a lease belonged to a dead instance, claimed or only fetched, and
 * is retried by the sweep (failStaleJobs), so a dead instance's jobs are all answered elsewhere within about 30-40 s.
 */
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
  private readonly idle = new IdleWait();
  private slots: number;
  private lastCheck = 0;
  private lastSweep = 0;
  /** renews the `started_on` of the jobs this worker holds (see the class comment) */
  private jobHeartbeat: ReturnType<typeof setInterval> | null = null;
  /** shadow jobs wait for a quiet event loop (quiet-loop.ts) */
  private readonly quiet = new QuietLoop();
  /** the signed webhooks' delivery worker (server/webhooks/worker.ts), on this queue's pg-boss */
  webhooks: WebhookWorker | null = null;
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
    await installQueues(q.boss, opts.target, q.opts.itemTimeoutSeconds);
    if (q.opts.worker) q.webhooks = WebhookWorker.start({ db: opts.db, boss: q.boss });
    else attachWebhookQueue(q.boss); // send-only: deliveries are queued here, sent by a worker
    if (q.opts.worker) {
      await q.recover();
      q.loopDone = q.loop();
      q.jobHeartbeat = setInterval(() => void q.touchJobs(), (q.opts.leaseSeconds * 1000) / 3);
      q.jobHeartbeat.unref?.();
    }
    return q;
  }

  /**
   * The job heartbeat: the jobs this worker holds are seen now (`started_on`), so no other instance's sweep takes
   * them for a dead instance's. A job held longer than the item timeout is no longer renewed: pg-boss's expiry then
   * bounds it, as before.
   */
  private async touchJobs(): Promise<void> {
    if (this.crashed) return;
    const young = Date.now() - this.opts.itemTimeoutSeconds * 1000;
    const ids = [...this.inflight].filter(([, f]) => f.since > young).map(([id]) => id);
    if (!ids.length) return;
    await this.sql()
      .executeSql(
        `UPDATE ${SCHEMA}.job SET started_on = now() WHERE name = ANY($1::text[]) AND id = ANY($2::uuid[]) AND state = 'active'`,
        [[EVAL_QUEUE, SHADOW_QUEUE], ids],
      )
      .catch((e: Error) => this.opts.log(`job heartbeat failed: ${e.message}`));
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
          name: queueNameOf(j.kind),
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

  /** See queue-recovery.ts: fail orphaned active jobs (embedded only), then give every unfinished item a live job. */
  async recover(): Promise<{ failedActive: number; inserted: number; retried: number }> {
    return recoverJobs(this.internals());
  }

  /** What recovery and the lease sweep use of the queue (queue-recovery.ts). */
  private internals(): QueueInternals {
    return {
      db: this.db,
      boss: this.boss,
      sql: this.sql(),
      recoverActive: this.opts.recoverActive,
      log: this.opts.log,
      failJobs: (ids, message, queue) => this.failJobs(ids, message, queue),
      enqueue: (jobs) => this.enqueue(jobs),
      isInflight: (jobId) => this.inflight.has(jobId),
    };
  }

  // ------------------------------------------------------------ worker loop

  private wake() {
    this.idle.wake();
  }

  private sleep(ms: number): Promise<void> {
    return this.idle.sleep(ms);
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

  /**
   * Items whose worker stopped renewing its lease (the instance died) go back to pending and their jobs are retried;
   * then jobs no worker has seen for a lease (a dead instance's, claimed or only fetched) are retried.
   */
  async sweepExpiredLeases(force = false): Promise<number> {
    if (!force && Date.now() - this.lastSweep < (this.opts.leaseSeconds * 1000) / 3) return 0;
    this.lastSweep = Date.now();
    const freed = await freeExpiredLeases(this.internals());
    const retried = await failStaleJobs(this.internals(), this.opts.leaseSeconds);
    if (freed || retried) this.wake();
    return freed + retried;
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
      if (fetched > 0 || this.inflight.size > 0) this.idle.busy(); // IdleWait: polls less often only when quiet
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
    const entry: Inflight = { runId: job.data.runId, abort, promise: Promise.resolve(), since: Date.now() };
    this.inflight.set(job.id, entry);
    entry.promise = (async () => {
      try {
        // Embedded PGlite answers queries without real I/O, so a worker whose model is fast (the offline provider)
        // could chain promises for a whole run and starve the HTTP server: give the event loop a turn per item.
        await new Promise((r) => setImmediate(r));
        if (job.data.kind === "shadow") await this.quiet.wait(() => this.stopping);
        // each job is a trace of its own (a no-op while traces are off): its run's agent.run span, model calls and
        // queries are its children
        const outcome = await inSpan(
          `eval.${job.data.kind}`,
          {
            kind: "consumer",
            root: true,
            attributes: {
              "flowbench.eval.job": job.data.kind,
              "flowbench.eval.run_id": job.data.runId,
              "flowbench.eval.item_id": job.data.itemId,
              "flowbench.eval.attempt": job.retryCount + 1,
            },
          },
          async (span) => {
            if (job.data.kind === "shadow") await shadowTrace(this.db, job.data.itemId, "live");
            else if (job.data.kind === "judge") await this.processJudge(job.data, abort.signal);
            else if ((await this.processAnswer(job.data, abort.signal)) === "busy") {
              span?.setAttribute("flowbench.eval.outcome", "busy");
              return "busy" as const;
            }
            return "done" as const;
          },
        );
        if (outcome === "busy") {
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
        if (job.data.kind === "shadow") this.quiet.reset();
        this.processed++;
        this.inflight.delete(job.id);
        if (!this.crashed) this.wake();
      }
    })();
  }

  private async giveUp(job: EvalJob, message: string) {
    if (job.kind === "answer") await giveUpItem(this.db, job, message);
    // a comparison's item that could not be judged still counts, so the comparison decides on what it has
    if (job.kind === "judge" && job.compare) await comparisonStep(this.db, job.compare, job.itemId);
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

  /**
   * A judge job: the run's judge (cached with the run), or the job's own judge of a re-judging (otherSuggestions); a
   * judge comparison's job then counts in the comparison's progress (comparisonStep).
   */
  private async processJudge(job: EvalJob, signal: AbortSignal): Promise<void> {
    await this.judgeItem(job, signal);
    if (job.compare && !this.crashed) await comparisonStep(this.db, job.compare, job.itemId);
  }

  private async judgeItem(job: EvalJob, signal: AbortSignal): Promise<void> {
    const run = await this.db.evalRun.findUnique({
      where: { id: job.runId },
      select: { tier: true, setVersion: { select: { assertions: true } } },
    });
    if (!run) return;
    const own = await this.ensureRunCtx(job.runId);
    const other = job.judge && judgeKey(job.judge) !== own.judge.ref.key;
    await judgeStoredItem(
      this.db,
      job.itemId,
      { tier: run.tier, setAssertions: run.setVersion.assertions },
      undefined,
      {
        judge: other && job.judge ? await resolveJudge(this.db, job.judge) : own.judge,
        as: other ? "other" : "own",
        signal,
      },
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
    if (this.jobHeartbeat) clearInterval(this.jobHeartbeat); // a crashed worker's heartbeat stopped with it (touchJobs)
    await this.webhooks?.stop();
    detachWebhookQueue(this.boss);
    await this.boss.stop({ graceful: false, close: true, wait: true });
    if (globals.__flowbenchEvalQueue === this) globals.__flowbenchEvalQueue = undefined;
  }

  get inflightCount(): number {
    return this.inflight.size;
  }
}

/** The process's queue (worker.ts registers it). */
type Globals = { __flowbenchEvalQueue?: EvalQueue; __flowbenchEvalQueueStarting?: Promise<EvalQueue> };
export const globals = globalThis as typeof globalThis & Globals;
