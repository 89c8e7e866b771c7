import pg from "pg";
import type { DatabaseTarget } from "./url";

/**
 * Start-up work that several instances on one PostgreSQL server must not do at the same moment (migrating, pg-boss
 * installing its schema, seeding the sample agent) runs under a session advisory lock on its own connection: the
 * first instance does it, the others wait (`onWait` is told once) and then find it done. On the embedded database
 * only one process exists, so `fn` runs directly. The connection is closed (and the lock released) when `fn` ends.
 */
export const LOCKS = { migrate: 7_246_110_591, evalQueueStart: 7_246_110_592, seed: 7_246_110_593 } as const;

export async function withStartupLock<T>(
  target: DatabaseTarget,
  key: number,
  fn: () => Promise<T>,
  onWait?: () => void,
): Promise<T> {
  if (target.kind !== "postgresql") return fn();
  const client = new pg.Client({ connectionString: target.url, application_name: "flowbench-startup-lock" });
  await client.connect();
  try {
    const got = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock($1) AS ok`, [key]);
    if (!got.rows[0]?.ok) {
      onWait?.();
      await client.query(`SELECT pg_advisory_lock($1)`, [key]);
    }
    try {
      return await fn();
    } finally {
      await client.query(`SELECT pg_advisory_unlock($1)`, [key]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
