// Migrations, seeding and restarts against real databases: a temp PGlite folder, and the local
// PostgreSQL server when one is reachable.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { SAMPLE_APP_DIR, TSX_LOADER } from "../scripts/paths.ts";
import { redactUrl } from "../src/config.ts";
import { DatabaseOpenError, openDatabase } from "../src/db.ts";
import { MIGRATIONS, migrationStatus, runMigrations } from "../src/migrations.ts";
import { SEED_SCENES } from "../src/seed-data.ts";
import { startApp, type RunningApp } from "../src/server.ts";
import { captureLogger, fetchJson, makeTempDir, pgliteConfig } from "./helpers.ts";

const MIGRATE_TS = path.join(SAMPLE_APP_DIR, "src", "migrate.ts");
const seededDishes = SEED_SCENES.reduce((n, s) => n + s.dishes.length, 0);

async function counts(app: RunningApp): Promise<{ scenes: number; dishes: number; migrations: number }> {
  const [row] = await app.db.query<{ scenes: number; dishes: number; migrations: number }>(
    `SELECT (SELECT count(*) FROM meal_scenes)::int AS scenes, (SELECT count(*) FROM dishes)::int AS dishes,
            (SELECT count(*) FROM schema_migrations)::int AS migrations`,
  );
  if (!row) throw new Error("no counts");
  return row;
}

function portIsClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

describe("PGlite data folder", () => {
  const temp = makeTempDir();
  const dataDir = path.join(temp.dir, "a", "b", "pglite");
  afterAll(() => temp.remove());

  it("seeds once, keeps data across restarts, never duplicates and never re-seeds over owner edits", async () => {
    const { logger, lines } = captureLogger();
    const first = await startApp(pgliteConfig(dataDir), { logger });
    expect(await counts(first)).toEqual({
      scenes: SEED_SCENES.length,
      dishes: seededDishes,
      migrations: MIGRATIONS.length,
    });
    expect(lines.filter((l) => l.msg === "migration applied").map((l) => l.id)).toEqual(MIGRATIONS.map((m) => m.id));
    // The owner changes the menu: one dish is taken off.
    await first.db.query("DELETE FROM dishes WHERE id = 'tea-egg'");
    await first.close();
    expect(await portIsClosed(first.port)).toBe(true);

    const second = await startApp(pgliteConfig(dataDir), { logger: captureLogger().logger });
    expect(await counts(second)).toEqual({
      scenes: SEED_SCENES.length,
      dishes: seededDishes - 1,
      migrations: MIGRATIONS.length,
    });
    expect(await runMigrations(second.db)).toEqual({ applied: [], alreadyApplied: MIGRATIONS.map((m) => m.id) });
    const res = await fetchJson(`${second.url}/api/dishes?scene=breakfast`);
    expect((res.body as { dishes: unknown[] }).dishes).toHaveLength(5);
    await second.close();
  });

  it("refuses a second process on the same folder while the first runs, naming the folder", async () => {
    const app = await startApp(pgliteConfig(dataDir), { logger: captureLogger().logger });
    try {
      // The lock is per process; pretend another live process (our parent) holds it.
      writeFileSync(`${dataDir}.lock`, String(process.ppid));
      await expect(openDatabase({ kind: "pglite", dataDir }, captureLogger().logger)).rejects.toThrow(
        DatabaseOpenError,
      );
      await expect(openDatabase({ kind: "pglite", dataDir }, captureLogger().logger)).rejects.toThrow(
        /in use by process .*stop the running service/,
      );
      writeFileSync(`${dataDir}.lock`, String(process.pid));
    } finally {
      await app.close();
    }
    // A lock left behind by a dead process is taken over.
    writeFileSync(`${dataDir}.lock`, "999999999");
    const db = await openDatabase({ kind: "pglite", dataDir }, captureLogger().logger);
    await db.close();
  });

  const runMigrate = (folder: string, args: string[] = []) =>
    spawnSync(process.execPath, ["--import", TSX_LOADER, MIGRATE_TS, ...args], {
      env: { ...process.env, DATABASE_URL: `pglite:${folder}` },
      encoding: "utf8",
      timeout: 90_000, // a fresh PGlite folder migrated by a child process: 25 s was too little on a loaded 2-core machine
    });

  it("migrate.ts applies nothing on a migrated folder and --status reports the ledger", () => {
    const migrate = runMigrate(dataDir);
    expect(migrate.status, migrate.stderr).toBe(0);
    expect(migrate.stdout).toContain("applied: nothing, the database was already up to date");
    expect(migrate.stdout).toContain(
      `status: 2 applied, 0 pending; ${SEED_SCENES.length} scenes, ${seededDishes - 1} dishes`,
    );
    const status = runMigrate(dataDir, ["--status"]);
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/done +0001_create_menu_tables/);
    expect(status.stdout).not.toContain("applied:");
  });

  it("migrate.ts on a fresh folder prints each step it applied", () => {
    const run = runMigrate(path.join(temp.dir, "fresh"));
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("applied: 0001_create_menu_tables (schema) - created tables meal_scenes, dishes");
    expect(run.stdout).toContain(
      `applied: 0002_seed_menu (seed) - inserted ${SEED_SCENES.length} scenes, ${seededDishes} dishes`,
    );
  });
});

// A dedicated database on the local server, created and dropped by this test.
const adminUrl = process.env.SAMPLE_APP_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const pgReachable = await (async () => {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch (err) {
    console.warn(
      `[sample-app] PostgreSQL at ${redactUrl(adminUrl)} is unreachable (${(err as Error).message}); skipping the PostgreSQL test.`,
    );
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
})();

describe.skipIf(!pgReachable)("PostgreSQL server", () => {
  const dbName = `meal_scenes_test_${process.pid}_${Date.now().toString(36)}`;
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;

  async function admin(sql: string): Promise<void> {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  afterAll(() => admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));

  it("migrates, serves every endpoint and stays idempotent across a restart", async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    const config = {
      database: { kind: "postgresql" as const, url: url.toString() },
      port: 0,
      logLevel: "debug" as const,
    };
    const first = await startApp(config, { logger: captureLogger().logger });
    try {
      expect((await fetchJson(`${first.url}/health`)).body).toMatchObject({
        status: "ok",
        database: { status: "ok", kind: "postgresql" },
      });
      const scenes = (await fetchJson(`${first.url}/api/meal-scenes`)).body as {
        scenes: Array<{ id: string; dishCount: number }>;
      };
      expect(scenes.scenes).toHaveLength(SEED_SCENES.length);
      const dishes = await fetchJson(`${first.url}/api/dishes?scene=family-dinner`);
      expect(dishes.status).toBe(200);
      expect((dishes.body as { dishes: Array<{ price: number }> }).dishes[0]?.price).toBe(68);
      expect((await fetchJson(`${first.url}/api/dishes?scene=nope`)).status).toBe(404);
    } finally {
      await first.close();
    }
    const second = await startApp(config, { logger: captureLogger().logger });
    try {
      expect(await counts(second)).toEqual({
        scenes: SEED_SCENES.length,
        dishes: seededDishes,
        migrations: MIGRATIONS.length,
      });
      const status = await migrationStatus(second.db);
      expect(status.pending).toEqual([]);
      // Two migrators at once (e.g. two replicas starting) serialise on the advisory lock.
      const results = await Promise.all([runMigrations(second.db), runMigrations(second.db)]);
      expect(results.every((r) => r.applied.length === 0)).toBe(true);
    } finally {
      await second.close();
    }
  });
});
