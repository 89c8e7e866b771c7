import fs from "node:fs";
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

export type ServerInfo = Pick<StartedServer, "name" | "url" | "adminToken" | "adminEmail" | "adminPassword">;

declare module "vitest" {
  export interface ProvidedContext {
    servers: ServerInfo[];
    /** A local stand-in for the owner's API; both app servers have it as WEBHOOK_BASE_URL. */
    webhookUrl: string;
  }
}

/**
 * Starts the production build twice: on the embedded PGlite and on a fresh database of the PostgreSQL server.
 * Every integration test runs against both. The server leg is skipped with a printed notice only when no
 * PostgreSQL server is reachable.
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
  const pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-it-pglite-"));
  cleanups.push(async () => fs.rmSync(pgliteDir, { recursive: true, force: true }));

  const webhook = await startWebhookServer();
  cleanups.push(webhook.close);
  const runtimeEnv = { WEBHOOK_BASE_URL: webhook.url };

  const starts: Array<Promise<StartedServer>> = [startServer("pglite", `pglite:${pgliteDir}`, runtimeEnv)];
  if (await postgresReachable()) {
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
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
  project.provide(
    "servers",
    servers.map(({ name, url, adminToken, adminEmail, adminPassword }) => ({
      name,
      url,
      adminToken,
      adminEmail,
      adminPassword,
    })),
  );
  return async () => {
    for (const s of servers) await s.stop();
    for (const c of cleanups.reverse()) await c();
  };
}
