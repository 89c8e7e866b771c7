import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import {
  createPostgresTestDatabase,
  postgresDatabaseUrl,
  postgresReachable,
  withPostgresAdmin,
} from "../../server/db/test-postgres";

/** Starts the production build (`next start`) as a real server on a free port, on the given database. */
export type StartedServer = {
  name: string;
  url: string;
  adminToken: string;
  adminEmail: string;
  adminPassword: string;
  logFile: string;
  /** the server's process id (what a benchmark reads its memory from) */
  pid: number;
  stop: () => Promise<void>;
  /**
   * kill -9, as an instance dies: the server's process group when started with `group: true` (the server and every
   * process it started), else its process. No graceful step runs; `stop()` afterwards only cleans up.
   */
  kill: () => void;
};

export const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** POST with the server's admin token, JSON in and out; a non-2xx answer throws with its status and body. */
export function adminPost(server: Pick<StartedServer, "url" | "adminToken">) {
  const headers = { authorization: `Bearer ${server.adminToken}`, "content-type": "application/json" };
  return async (p: string, body: unknown) => {
    const res = await fetch(`${server.url}${p}`, { method: "POST", headers, body: JSON.stringify(body) });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** The build folder (`NEXT_DIST_DIR`, default .next): `next start` reads the same variable via next.config.mjs. */
export const DIST_DIR = path.join(ROOT, process.env.NEXT_DIST_DIR || ".next");
export { postgresReachable };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/**
 * The name of a database on the server with every migration of prisma/migrations applied and nothing else, made once
 * per set of migrations (named by their hash) and kept, for `CREATE DATABASE ... TEMPLATE`. Undefined (and a notice)
 * when it cannot be made: the server then migrates at start-up as usual.
 */
async function migratedTemplate(admin: pg.Client): Promise<string | undefined> {
  const dir = path.join(ROOT, "prisma", "migrations");
  const hash = crypto.createHash("sha256");
  for (const m of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, m, "migration.sql");
    if (fs.existsSync(file)) hash.update(`${m}\0${fs.readFileSync(file, "utf8")}\0`);
  }
  const template = `flowbench_tpl_${hash.digest("hex").slice(0, 16)}`;
  const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
  if (found.rowCount) return template;
  // made under a name of its own and renamed when complete, so a run at the same moment never copies half of it
  const partial = `${template}_${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;
  try {
    await admin.query(`CREATE DATABASE "${partial}"`);
    const { deployMigrations } = await import("../../server/db/migrate");
    const url = postgresDatabaseUrl(partial);
    await deployMigrations({ kind: "postgresql", url, display: url });
    await admin.query(`ALTER DATABASE "${partial}" RENAME TO "${template}"`);
    return template;
  } catch (e) {
    await admin.query(`DROP DATABASE IF EXISTS "${partial}" WITH (FORCE)`).catch(() => undefined);
    const made = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
    if (made.rowCount) return template; // another run made it first
    console.warn(`[app-server] NOTICE: no migrated template database (${String(e)}): the server migrates at start-up`);
    return undefined;
  }
}

/**
 * A throw-away database on the PostgreSQL server; dropped by the returned function. `migrated`: a copy of the migrated
 * template (see above), so a server's start-up finds every migration applied (about 4 s less on 2 cores); without it
 * the database is empty and start-up migrates it (multi-instance checks exactly that).
 */
export async function createPostgresDatabase({ migrated = false }: { migrated?: boolean } = {}): Promise<{
  url: string;
  drop: () => Promise<void>;
}> {
  const template = migrated ? await withPostgresAdmin(migratedTemplate) : undefined;
  const { url, drop } = await createPostgresTestDatabase({ prefix: "flowbench_it", template });
  return { url, drop };
}

/**
 * `until`: "ready" (default) waits for /api/health/ready; "alive" only for liveness (/api/health), e.g. to watch start-up.
 * A `pglite:<folder>` that is absent or empty starts as a copy of the migrated empty database (server/db/test-db.ts)
 * unless `migrated: false`: start-up then finds every migration applied instead of applying them all (about 4 s of
 * each start on 2 cores). The e2e web server (playwright.config.ts), `db:check` and multi-instance on PostgreSQL still
 * migrate from nothing at start-up. `group`: the server leads a process group of its own, so `kill()` ends all of it
 * (off by default: a server in the caller's group also gets the terminal's Ctrl-C). `nodeArgs`: flags for Node itself
 * (e.g. `--cpu-prof`, which NODE_OPTIONS does not accept).
 */
export async function startServer(
  name: string,
  databaseUrl: string,
  extraEnv: Record<string, string> = {},
  {
    until = "ready",
    migrated = true,
    group = false,
    nodeArgs = [],
  }: { until?: "ready" | "alive"; migrated?: boolean; group?: boolean; nodeArgs?: string[] } = {},
): Promise<StartedServer> {
  const pgliteDir = /^pglite:(?!memory(:|$))(.+)$/.exec(databaseUrl)?.[2];
  if (migrated && pgliteDir) {
    const dir = path.resolve(ROOT, pgliteDir); // the server runs in ROOT
    if (!fs.existsSync(dir) || fs.readdirSync(dir).length === 0) {
      const { fillMigratedPgliteDir } = await import("../../server/db/test-db");
      await fillMigratedPgliteDir(dir);
    }
  }
  const port = await freePort();
  const adminToken = extraEnv.FLOWBENCH_INIT_API_TOKEN ?? `it_${crypto.randomUUID().replaceAll("-", "")}`;
  const adminEmail = "admin@it.flowbench.test";
  const adminPassword = "it-admin-password";
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-it-data-"));
  const logFile = path.join(os.tmpdir(), `flowbench-it-${name}-${port}.log`);
  const log = fs.openSync(logFile, "w");
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...nodeArgs,
      path.join(ROOT, "node_modules/next/dist/bin/next"),
      "start",
      "-p",
      String(port),
      "-H",
      "127.0.0.1",
      // idle connections outlive the callers' own idle limit (undici's fetch drops them after 4 s): with Node's 5 s
      // a loaded machine could delay a test's next request past the server's close, and a POST sent on the socket
      // as it closed failed with "other side closed" (judges.test in a fresh-clone run at load 15)
      "--keepAliveTimeout",
      "65000",
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATABASE_URL: databaseUrl,
        FLOWBENCH_DATA_DIR: dataDir,
        FLOWBENCH_INIT_ADMIN_EMAIL: adminEmail,
        FLOWBENCH_INIT_ADMIN_PASSWORD: adminPassword,
        FLOWBENCH_INIT_API_TOKEN: adminToken,
        NEXTAUTH_URL: `http://127.0.0.1:${port}`,
        FLOWBENCH_SEED_SAMPLE_AGENT: "off", // tests that need it turn it on
        ...extraEnv,
      },
      stdio: ["ignore", log, log],
      detached: group,
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      fs.closeSync(log);
      fs.rmSync(dataDir, { recursive: true, force: true });
      throw new Error(
        `${name} server exited early (exit code ${child.exitCode}):\n${fs.readFileSync(logFile, "utf8")}`,
      );
    }
    try {
      // readiness, not liveness: migrations applied and start-up work done (unless only liveness is asked for)
      // with a time limit: a request that arrives before start-up installed its probes waits for start-up to end
      const res = await fetch(`${url}/api/health${until === "ready" ? "/ready" : ""}`, {
        signal: AbortSignal.timeout(2_000),
      });
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${name} server did not become ready in 120 s:\n${fs.readFileSync(logFile, "utf8")}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    name,
    url,
    adminToken,
    adminEmail,
    adminPassword,
    logFile,
    pid: child.pid!,
    kill: () => {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      if (group) process.kill(-child.pid, "SIGKILL");
      else child.kill("SIGKILL");
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        // resolved once the process is gone (what a test does next may need its database folder or port): SIGTERM,
        // and SIGKILL when it has not exited 10 s later
        const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
        child.kill("SIGTERM");
        const t = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(t);
      }
      fs.closeSync(log);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
