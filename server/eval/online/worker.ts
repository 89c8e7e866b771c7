import type PgBoss from "pg-boss";
import type { Db } from "../../db/client";
import { QuietLoop } from "../runs/quiet-loop";
import { ONLINE_JUDGING_LIMITS } from "./schemas";
import {
  ONLINE_QUEUE,
  type OnlineJob,
  ensureOnlineQueue,
  insertOnlineJobs,
  processAnswers,
  processJudge,
} from "./watch";
import { IdleWait } from "../../core/idle";

export type OnlineWorkerOptions = { db: Db; boss: PgBoss; pollMs?: number; log?: (message: string) => void };

/**
 * Works the `eval-online` queue (./watch.ts says what its jobs do) on the evaluation queue's pg-boss: at most
 * ONLINE_JUDGING_LIMITS.judgesPerInstance jobs at once per instance, each after a quiet event loop (the intent
 * shadow's rule, ../runs/quiet-loop.ts: utilisation under half over 100 ms, waited for at most 5 s), so a busy
 * instance falls behind on judging instead of slowing its chats. A failed job is retried by pg-boss (5 times); a
 * judgment is stored once per trace and a lead announced once, so a retry repeats nothing that was done.
 */
export class OnlineWorker {
  private readonly db: Db;
  private readonly boss: PgBoss;
  private readonly pollMs: number;
  private readonly log: (m: string) => void;
  private readonly inflight = new Map<string, { promise: Promise<void>; abort: AbortController }>();
  private readonly quiet = new QuietLoop();
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private readonly idle = new IdleWait();
  /** jobs finished by this instance (tests, the benchmark) */
  processed = 0;

  private constructor(opts: OnlineWorkerOptions) {
    this.db = opts.db;
    this.boss = opts.boss;
    this.pollMs = opts.pollMs ?? 500;
    this.log = opts.log ?? ((m) => console.log(`[flowbench] online judging: ${m}`));
  }

  static async start(opts: OnlineWorkerOptions): Promise<OnlineWorker> {
    await ensureOnlineQueue(opts.boss);
    const w = new OnlineWorker(opts);
    w.loopDone = w.loop();
    globals.__flowbenchOnlineWorker = w;
    return w;
  }

  private wake() {
    this.idle.wake();
  }

  private sleep(ms: number): Promise<void> {
    return this.idle.sleep(ms);
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let fetched = 0;
      try {
        const free = ONLINE_JUDGING_LIMITS.judgesPerInstance - this.inflight.size;
        if (free > 0) {
          const jobs = await this.boss.fetch<OnlineJob>(ONLINE_QUEUE, { batchSize: free });
          fetched = jobs.length;
          for (const job of jobs) {
            if (this.stopping) await this.boss.fail(ONLINE_QUEUE, job.id, { message: "the worker stopped" });
            else this.launch(job);
          }
        }
      } catch (e) {
        if (!this.stopping) this.log(`worker loop error: ${(e as Error).message}`);
      }
      if (this.stopping) break;
      if (fetched > 0 || this.inflight.size > 0) this.idle.busy(); // IdleWait: polls less often only when quiet
      if (fetched === 0 || this.inflight.size >= ONLINE_JUDGING_LIMITS.judgesPerInstance) await this.sleep(this.pollMs);
    }
  }

  private launch(job: PgBoss.Job<OnlineJob>) {
    const abort = new AbortController();
    const promise = (async () => {
      try {
        await this.quiet.wait(() => this.stopping);
        if (job.data.kind === "judge") await processJudge(this.db, job.data.traceId, abort.signal);
        else await processAnswers(this.db, job.data, (jobs) => insertOnlineJobs(this.boss, jobs));
        await this.boss.complete(ONLINE_QUEUE, job.id);
      } catch (e) {
        const message = (e as Error).message ?? String(e);
        if (!this.stopping) this.log(`job ${job.data.kind} failed (retried): ${message}`);
        await this.boss.fail(ONLINE_QUEUE, job.id, { message }).catch(() => undefined);
      } finally {
        this.quiet.reset();
        this.processed++;
        this.inflight.delete(job.id);
        this.wake();
      }
    })();
    this.inflight.set(job.id, { promise, abort });
  }

  /** Stops fetching, lets jobs in flight finish for up to `drainMs`, then aborts them (pg-boss retries them). */
  async stop(drainMs = 10_000): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loopDone?.catch(() => undefined);
    const settled = () => Promise.allSettled([...this.inflight.values()].map((f) => f.promise));
    await Promise.race([settled(), new Promise((r) => setTimeout(r, drainMs))]);
    for (const f of this.inflight.values()) f.abort.abort(new Error("the worker is stopping"));
    await settled();
    if (globals.__flowbenchOnlineWorker === this) globals.__flowbenchOnlineWorker = undefined;
  }

  get inflightCount(): number {
    return this.inflight.size;
  }
}

type Globals = { __flowbenchOnlineWorker?: OnlineWorker };
const globals = globalThis as typeof globalThis & Globals;

/** The process's online worker, if one runs. */
export const onlineWorker = (): OnlineWorker | undefined => globals.__flowbenchOnlineWorker;
