import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import {
  DIST_DIR,
  ROOT,
  createPostgresDatabase,
  postgresReachable,
  startServer,
  type StartedServer,
} from "../../scripts/lib/app-server";
import { startWebhookServer } from "../../server/runtime/testing";
import { LOGIN_FIRST_WAIT_SECONDS } from "./settings";

/** The servers' FLOWBENCH_METRICS_TOKEN (a scraper's token for GET /api/metrics; metrics.test.ts). */
export const METRICS_TOKEN = "it_metrics_scraper_token_0123456789";

export type ServerInfo = Pick<StartedServer, "name" | "url" | "adminToken" | "adminEmail" | "adminPassword"> & {
  /** the PostgreSQL leg's database (backup.test.ts dumps it while the server runs); absent for PGlite */
  databaseUrl?: string;
};

declare module "vitest" {
  export interface ProvidedContext {
    servers: ServerInfo[];
    /** whether this process runs the tests that need no started server (the PGlite leg's process does) */
    serverIndependent: boolean;
    /** A local stand-in for the owner's API; both app servers have it as WEBHOOK_BASE_URL. */
    webhookUrl: string;
    /** The port webhooks.test.ts's receiver listens on (127.0.0.1): listed exactly in the servers' HTTP_ALLOWED_ORIGINS. */
    webhookReceiverPort: number;
  }
}

/** The legs this process runs: FLOWBENCH_IT_LEG=pglite or =postgresql runs one (`npm test` runs both legs at once, in
 * two processes, each with its own server); unset runs both in this process, one after the other. */
export function integrationLegs(): Array<"pglite" | "postgresql"> {
  const leg = process.env.FLOWBENCH_IT_LEG;
  if (leg === "pglite" || leg === "postgresql") return [leg];
  if (leg) throw new Error(`FLOWBENCH_IT_LEG=${leg}: expected pglite or postgresql`);
  return ["pglite", "postgresql"];
}

/**
 * Starts the production build on the embedded PGlite and on a fresh database of the PostgreSQL server (or on the one
 * FLOWBENCH_IT_LEG names). Every integration test that takes `servers()` runs against each. The server leg is skipped
 * with a printed notice only when no PostgreSQL server is reachable.
 */
export default async function setup(project: TestProject) {
  if (!fs.existsSync(path.join(DIST_DIR, "BUILD_ID"))) {
    console.log("[integration] no production build: running next build");
    const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], {
      cwd: ROOT,
      stdio: "inherit",
    });
    if (r.status !== 0) throw new Error("next build failed");
  }
  const cleanups: Array<() => Promise<void>> = [];
  const servers: StartedServer[] = [];
  const legs = integrationLegs();

  const webhook = await startWebhookServer();
  cleanups.push(webhook.close);
  const receiverPort = await freePort();
  // TRUSTED_PROXY_HOPS=1: the login throttle counts X-Forwarded-For's last entry as the client address (the socket's
  // when there is none), so login-throttle.test.ts fails sign-ins from addresses of its own, not from 127.0.0.1, which
  // every other file's sign-ins share; the throttle's first wait is longer than its default (settings.ts)
  const runtimeEnv = {
    WEBHOOK_BASE_URL: webhook.url,
    FLOWBENCH_METRICS_TOKEN: METRICS_TOKEN,
    TRUSTED_PROXY_HOPS: "1",
    LOGIN_THROTTLE_FIRST_WAIT_SECONDS: String(LOGIN_FIRST_WAIT_SECONDS),
    // signed webhooks (webhooks.test.ts): its receiver on a loopback port listed exactly (the SSRF policy allows
    // loopback only for exact origins), and a short schedule: retries after 0.5 s, an endpoint failing for 4 s is disabled
    HTTP_ALLOWED_ORIGINS: `http://127.0.0.1:${receiverPort}`,
    WEBHOOK_RETRY_BASE_SECONDS: "0.5",
    WEBHOOK_DISABLE_AFTER_SECONDS: "4",
  };

  const starts: Array<Promise<StartedServer>> = [];
  let pgUrl: string | undefined;
  if (legs.includes("pglite")) {
    const pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-it-pglite-"));
    cleanups.push(async () => fs.rmSync(pgliteDir, { recursive: true, force: true }));
    starts.push(startServer("pglite", `pglite:${pgliteDir}`, runtimeEnv));
  }
  if (!legs.includes("postgresql")) {
    /* this process runs the PGlite leg only */
  } else if (await postgresReachable()) {
    const database = await createPostgresDatabase({ migrated: true });
    cleanups.push(database.drop);
    pgUrl = database.url;
    starts.push(startServer("postgresql", database.url, runtimeEnv));
  } else {
    console.warn(
      "\n[integration] NOTICE: no PostgreSQL server reachable: the PostgreSQL leg is SKIPPED (PGlite only)\n",
    );
  }
  try {
    for (const s of await Promise.all(starts)) servers.push(s);
  } catch (e) {
    for (const s of servers) await s.stop();
    for (const c of cleanups.reverse()) await c();
    throw e;
  }
  project.provide("webhookUrl", webhook.url);
  project.provide("webhookReceiverPort", receiverPort);
  project.provide("serverIndependent", legs.includes("pglite"));
  project.provide(
    "servers",
    servers.map(({ name, url, adminToken, adminEmail, adminPassword }) => ({
      name,
      url,
      adminToken,
      adminEmail,
      adminPassword,
      ...(name === "postgresql" && pgUrl ? { databaseUrl: pgUrl } : {}),
    })),
  );
  return async () => {
    for (const s of servers) await s.stop();
    for (const c of cleanups.reverse()) await c();
  };
}

/** A port free on 127.0.0.1 now (the webhook receiver binds it later, in the test process). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}
