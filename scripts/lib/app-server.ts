import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/** Starts the production build (`next start`) as a real server on a free port, on the given database. */
export type StartedServer = {
  name: string;
  url: string;
  adminToken: string;
  adminEmail: string;
  adminPassword: string;
  logFile: string;
  stop: () => Promise<void>;
};

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
/** The build folder (`NEXT_DIST_DIR`, default .next): `next start` reads the same variable via next.config.mjs. */
export const DIST_DIR = path.join(ROOT, process.env.NEXT_DIST_DIR || ".next");
export const PG_ADMIN_URL = process.env.FLOWBENCH_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

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

/** A throw-away database on the PostgreSQL server; dropped by the returned function. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `flowbench_it_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** `until`: "ready" (default) waits for /api/health/ready; "alive" only for liveness (/api/health), e.g. to watch start-up. */
export async function startServer(
  name: string,
  databaseUrl: string,
  extraEnv: Record<string, string> = {},
  { until = "ready" }: { until?: "ready" | "alive" } = {},
): Promise<StartedServer> {
  const port = await freePort();
  const adminToken = extraEnv.FLOWBENCH_INIT_API_TOKEN ?? `it_${crypto.randomUUID().replaceAll("-", "")}`;
  const adminEmail = "admin@it.flowbench.test";
  const adminPassword = "it-admin-password";
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-it-data-"));
  const logFile = path.join(os.tmpdir(), `flowbench-it-${name}-${port}.log`);
  const log = fs.openSync(logFile, "w");
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
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
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} server exited early:\n${fs.readFileSync(logFile, "utf8")}`);
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
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise<void>((resolve) => {
          const t = setTimeout(() => {
            child.kill("SIGKILL");
            resolve();
          }, 10_000);
          child.once("exit", () => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      fs.closeSync(log);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
