import type PgBoss from "pg-boss";
import type { Db } from "../../db/client";
import { answerJobId, EVAL_QUEUE, type EvalJob, type ExecSql, SCHEMA, SHADOW_QUEUE } from "./queue-jobs";

/**
 * Recovery of the durable queue (EvalQueue calls these; see queue.ts for the transport).
 *
 * Restarts: at start the worker sweeps: in embedded mode any job still `active` belonged to a dead process (only one
 * process can open the folder) and is failed at once (-> retry); on a PostgreSQL server such jobs are retried by
 * pg-boss after their expiry (EVAL_ITEM_TIMEOUT_SECONDS). Then every unfinished item of an answering run gets a live
 * job again (missing -> inserted, failed -> retried, cancelled -> resumed).
 *
 * Dead workers: every worker sweeps about every third of a lease: items of answering runs whose lease expired go back
 * to pending and their still-active jobs are failed for retry (freeExpiredLeases). A job a worker holds is also
 * "seen": the worker renews its jobs' `started_on` every third of a lease (EvalQueue's job heartbeat), so a job still
 * `active` but not seen for a lease was held by an instance that died, whether it had claimed its item or only fetched
 * the job (answer jobs fetched and not yet claimed, judge and shadow jobs): it is failed for retry (failStaleJobs),
 * instead of waiting for pg-boss's expiry (EVAL_ITEM_TIMEOUT_SECONDS).
 */
export type QueueInternals = {
  db: Db;
  boss: PgBoss;
  sql: ExecSql;
  /** fail jobs left active by a dead process (safe only when no other process shares the database) */
  recoverActive: boolean;
  log: (message: string) => void;
  failJobs(ids: string[], message: string, queue?: string): Promise<void>;
  enqueue(jobs: EvalJob[]): Promise<void>;
  /** this instance is answering the job right now */
  isInflight(jobId: string): boolean;
};

/** At start: fail orphaned active jobs (embedded only), then give every unfinished item a live job. */
export async function recoverJobs(
  q: QueueInternals,
): Promise<{ failedActive: number; inserted: number; retried: number }> {
  const sql = q.sql;
  let failedActive = 0;
  if (q.recoverActive) {
    for (const queue of [EVAL_QUEUE, SHADOW_QUEUE]) {
      const { rows } = await sql.executeSql(`SELECT id FROM ${SCHEMA}.job WHERE name = $1 AND state = 'active'`, [
        queue,
      ]);
      const ids = rows.map((r) => String(r.id));
      if (ids.length) {
        await q.failJobs(ids, "the process running this job stopped; it is retried", queue);
        failedActive += ids.length;
      }
    }
    // nobody is answering anything yet in this (the only) process: items a dead process was answering are pending
    await q.db.evalRunItem.updateMany({
      where: { status: "answering", run: { status: "answering", mode: "in_platform" } },
      data: { status: "pending" },
    });
  }
  const items = await q.db.evalRunItem.findMany({
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
    if (failed.length) await q.boss.retry(EVAL_QUEUE, failed);
    if (cancelled.length) await q.boss.resume(EVAL_QUEUE, cancelled);
    if (completed.length) await q.boss.deleteJob(EVAL_QUEUE, completed);
    if (missing.length) await q.enqueue(missing);
    inserted += missing.length;
    retried += failed.length + cancelled.length;
  }
  if (failedActive || inserted || retried)
    q.log(`recovered: ${failedActive} orphaned job(s) failed for retry, ${retried} retried, ${inserted} re-enqueued`);
  return { failedActive, inserted, retried };
}

/** Items of answering runs whose worker's lease expired go back to pending; their still-active jobs are failed for retry. */
export async function freeExpiredLeases(q: QueueInternals): Promise<number> {
  const freed = await q.db.$queryRaw<Array<{ id: string }>>`
    UPDATE "EvalRunItem" AS i SET "status" = 'pending', "leaseUntil" = NULL
    FROM "EvalRun" AS r
    WHERE r."id" = i."runId" AND r."status" = 'answering' AND r."mode" = 'in_platform'
      AND i."status" = 'answering' AND i."leaseUntil" <= (now() AT TIME ZONE 'UTC')
    RETURNING i."id"`;
  if (!freed.length) return 0;
  const jobIds = freed.map((f) => answerJobId(f.id));
  const { rows } = await q.sql.executeSql(
    `SELECT id::text AS id FROM ${SCHEMA}.job WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'`,
    [EVAL_QUEUE, jobIds],
  );
  const active = rows.map((r) => String(r.id)).filter((id) => !q.isInflight(id));
  if (active.length) await q.failJobs(active, "the worker answering it stopped renewing its lease; it is retried");
  q.log(
    `${freed.length} item(s) whose worker stopped renewing its lease are answered again (${active.length} job(s) retried)`,
  );

  return freed.length;
}

/**
 * Jobs still `active` but not seen by their worker for `staleSeconds` (its heartbeat renews `started_on`), and not this
 * instance's: their worker died; they are failed for retry. An answer job whose item is answered under a live lease is
 * left to the lease (freeExpiredLeases frees the item and fails the job once it expires): retrying the job earlier
 * would let another worker find the item taken, complete the job and leave nothing to retry the item with.
 */
export async function failStaleJobs(q: QueueInternals, staleSeconds: number): Promise<number> {
  const { rows } = await q.sql.executeSql(
    `SELECT id::text AS id, name, data->>'kind' AS kind, data->>'itemId' AS item FROM ${SCHEMA}.job
     WHERE name = ANY($1::text[]) AND state = 'active' AND started_on < now() - make_interval(secs => $2::float8)`,
    [[EVAL_QUEUE, SHADOW_QUEUE], staleSeconds],
  );
  const stale = rows.filter((r) => !q.isInflight(String(r.id)));
  if (!stale.length) return 0;
  const answering = stale.filter((r) => r.name === EVAL_QUEUE && r.kind === "answer").map((r) => String(r.item));
  const leased = new Set(
    answering.length
      ? (
          await q.db.$queryRaw<Array<{ id: string }>>`
            SELECT "id" FROM "EvalRunItem" WHERE "id" = ANY(${answering}::text[]) AND "status" = 'answering'
              AND "leaseUntil" > (now() AT TIME ZONE 'UTC')`
        ).map((r) => r.id)
      : [],
  );
  let failed = 0;
  for (const queue of [EVAL_QUEUE, SHADOW_QUEUE]) {
    const ids = stale
      .filter((r) => r.name === queue && !(r.kind === "answer" && leased.has(String(r.item))))
      .map((r) => String(r.id));
    if (ids.length) await q.failJobs(ids, "the worker holding it stopped (not seen for a lease); it is retried", queue);
    failed += ids.length;
  }
  if (failed) q.log(`${failed} job(s) held by a worker that stopped (not seen for a lease) are retried`);
  return failed;
}
