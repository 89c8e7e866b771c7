import crypto from "node:crypto";
import pg from "pg";

/**
 * The PostgreSQL server for tests and benchmarks (trust auth; `FLOWBENCH_TEST_PG_URL` overrides it): whether it is
 * reachable, and throw-away databases on it. Only `pg`, so the integration stage's global setup loads it cheaply.
 */
export const PG_ADMIN_URL = process.env.FLOWBENCH_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

/** True when the server answers within 2 s; suites on it skip with a notice otherwise. */
export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The URL of database `name` on the server. */
export function postgresDatabaseUrl(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `fn` on a connection to the server's admin database, closed afterwards. */
export async function withPostgresAdmin<T>(fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

/**
 * A new empty database on the server (a copy of `template` when given), named `prefix` and a random suffix; `drop`
 * removes it, closing its connections.
 */
export async function createPostgresTestDatabase({
  prefix = "flowbench_test",
  template,
}: {
  prefix?: string;
  template?: string;
} = {}): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await withPostgresAdmin((admin) =>
    admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`),
  );
  return {
    name,
    url: postgresDatabaseUrl(name),
    drop: async () => {
      await withPostgresAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
