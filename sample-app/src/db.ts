// One small interface over the two supported databases: embedded PGlite (a data folder) and a
// PostgreSQL server via `pg`. Both speak the same SQL, so migrations and queries are shared.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describeDatabase, type DatabaseConfig } from "./config.ts";
import type { Logger } from "./logger.ts";

export interface Queryable {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Database extends Queryable {
  readonly kind: DatabaseConfig["kind"];
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Cheap liveness check for /health; rejects on failure or after timeoutMs. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export class DatabaseOpenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DatabaseOpenError";
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite happily opens a folder another process already has open, and two writers corrupt it.
 * A pid lock file beside the folder makes a second process (e.g. a migration run while the
 * service is up) fail clearly instead. A lock left by a dead process is taken over.
 */
function acquirePgliteLock(dataDir: string): () => void {
  const lockPath = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let owner = Number.NaN;
      try {
        owner = Number(readFileSync(lockPath, "utf8").trim());
      } catch {
        // removed meanwhile by its owner: retry
      }
      // Same pid means a previous run of a container whose pid 1 was also us: stale.
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new DatabaseOpenError(
          `PGlite data folder ${dataDir} is in use by process ${owner} (lock file ${lockPath}); ` +
            "PGlite allows one process at a time, so stop the running service first (SIGTERM).",
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new DatabaseOpenError(`could not take the lock ${lockPath}`);
}

async function openPglite(dataDir: string): Promise<Database> {
  // PGlite creates the data folder itself but not its parents.
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const release = acquirePgliteLock(dataDir);
  const db = new PGlite(dataDir);
  try {
    await db.waitReady;
  } catch (err) {
    release();
    throw new DatabaseOpenError(`cannot open PGlite data folder ${dataDir}: ${(err as Error).message}`, { cause: err });
  }
  let closed = false;
  return {
    kind: "pglite",
    async query<T>(sql: string, params?: unknown[]) {
      return (await db.query<T>(sql, params)).rows;
    },
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({ query: async <T>(sql: string, params?: unknown[]) => (await tx.query<T>(sql, params)).rows }),
      ),
    async ping(timeoutMs = 2000) {
      await withTimeout(db.query("SELECT 1"), timeoutMs, "database ping");
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await db.close();
      } finally {
        release();
      }
    },
  };
}

async function openPostgres(url: string, logger: Logger): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 5, connectionTimeoutMillis: 5000, query_timeout: 15_000 });
  // Without a listener an idle client's network error would crash the process.
  pool.on("error", (err) => logger.warn("idle database connection failed", { err }));
  try {
    await pool.query("SELECT 1");
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new DatabaseOpenError(
      `cannot connect to ${describeDatabase({ kind: "postgresql", url })}: ${(err as Error).message}`,
      { cause: err },
    );
  }
  let closed = false;
  return {
    kind: "postgresql",
    async query<T>(sql: string, params?: unknown[]) {
      return (await pool.query(sql, params)).rows as T[];
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn({
          query: async <R>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as R[],
        });
        await client.query("COMMIT");
        return result;
      } catch (err) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async ping(timeoutMs = 2000) {
      await withTimeout(pool.query("SELECT 1"), timeoutMs, "database ping");
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

export function openDatabase(config: DatabaseConfig, logger: Logger): Promise<Database> {
  return config.kind === "pglite" ? openPglite(config.dataDir) : openPostgres(config.url, logger);
}
