import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import pg from "pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import type { MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm";
import { migrationAdapterFactory } from "./adapters";
import { LOCKS, withStartupLock } from "./locks";
import type { DatabaseTarget } from "./url";

/**
 * Migrations through Prisma's own schema engine compiled to WebAssembly, so they work on machines that cannot
 * download the native engine. It writes the same `_prisma_migrations` rows as `prisma migrate deploy`, so a
 * user with internet can switch to the stock CLI at any time.
 */

const root = process.cwd();
const schemaPath = path.join(root, "prisma", "schema.prisma");
const migrationsDir = path.join(root, "prisma", "migrations");
const NO_FILTER = { externalTables: [], externalEnums: [] };

type Glue = typeof import("@prisma/schema-engine-wasm/schema_engine_bg") & {
  __wbg_set_wasm(exports: WebAssembly.Exports): void;
};

let enginePromise: Promise<typeof SchemaEngine> | undefined;

/** Node 20 cannot `import` a .wasm module: instantiate it by hand against the package's JS glue. */
function loadEngineClass(): Promise<typeof SchemaEngine> {
  enginePromise ??= (async () => {
    const require = createRequire(path.join(root, "package.json"));
    const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const glue = (await import(/* webpackIgnore: true */ gluePath)) as Glue;
    const candidates = [
      path.join(path.dirname(gluePath), "schema_engine_bg.wasm"),
      path.join(path.dirname(require.resolve("prisma/package.json")), "build", "schema_engine_bg.wasm"),
    ];
    const wasmPath = candidates.find((p) => fs.existsSync(p));
    if (!wasmPath) throw new Error("Prisma's schema engine (schema_engine_bg.wasm) was not found in node_modules");
    const module = new WebAssembly.Module(fs.readFileSync(wasmPath));
    const instance = new WebAssembly.Instance(module, {
      "./schema_engine_bg.js": glue as unknown as WebAssembly.ModuleImports,
    });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue.SchemaEngine;
  })();
  return enginePromise;
}

function readSchema(): string {
  return fs.readFileSync(schemaPath, "utf8");
}

export function migrationsList(): MigrationList {
  const lockPath = path.join(migrationsDir, "migration_lock.toml");
  const dirs = fs.existsSync(migrationsDir)
    ? fs
        .readdirSync(migrationsDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  return {
    baseDir: migrationsDir,
    lockfile: { path: lockPath, content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((name) => {
      const file = path.join(migrationsDir, name, "migration.sql");
      const content = fs.existsSync(file)
        ? ({ tag: "ok", value: fs.readFileSync(file, "utf8") } as const)
        : ({ tag: "error", value: `${file} is missing` } as const);
      return { path: name, migrationFile: { path: "migration.sql", content } };
    }),
  };
}

async function withEngine<T>(
  factory: SqlMigrationAwareDriverAdapterFactory,
  fn: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const Engine = await loadEngineClass();
  const logs: string[] = [];
  const engine = await Engine.new(
    { datamodels: [[schemaPath, readSchema()]] },
    (line: string) => {
      if (process.env.FLOWBENCH_MIGRATE_DEBUG) console.error(line);
      logs.push(line);
    },
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  try {
    return await fn(engine);
  } catch (error) {
    throw new Error(`schema engine: ${engineMessage(error)}`);
  } finally {
    engine.free();
  }
}

function engineMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error && "message" in error) return String((error as { message: unknown }).message);
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

/** Names of the migrations in prisma/migrations that the database has not applied (finished, not rolled back). */
async function pendingMigrations(url: string): Promise<string[]> {
  const names = migrationsList().migrationDirectories.map((d) => d.path);
  const client = new pg.Client({ connectionString: url, application_name: "flowbench-migrate" });
  await client.connect();
  try {
    const table = await client.query<{ t: string | null }>(`SELECT to_regclass('_prisma_migrations')::text AS t`);
    if (!table.rows[0]?.t) return names;
    const done = await client.query<{ migration_name: string }>(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Set(done.rows.map((r) => r.migration_name));
    return names.filter((n) => !applied.has(n));
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Applies every pending migration (like `prisma migrate deploy`). Returns the names applied.
 *
 * On a PostgreSQL server several instances may start at once: each takes our advisory lock first, waiting (with a
 * log line) while another instance holds it rather than failing, then looks at `_prisma_migrations` and only starts
 * the schema engine when something is pending. The lock is held only while migrating; the engine's connections are
 * closed before it is released (the engine's own advisory lock, taken with a 10 s timeout, lived on in an idle pooled
 * connection for about 10 s after each start and made a second instance starting at the same moment exit).
 */
export async function deployMigrations(
  target: DatabaseTarget,
  log: (message: string) => void = () => undefined,
): Promise<string[]> {
  if (target.kind === "pglite") return applyWithEngine(target);
  return withStartupLock(
    target,
    LOCKS.migrate,
    async () => ((await pendingMigrations(target.url)).length ? applyWithEngine(target) : []),
    () => log("another instance is migrating the database; waiting for it to finish"),
  );
}

async function applyWithEngine(target: DatabaseTarget): Promise<string[]> {
  const factory = await migrationAdapterFactory(target);
  try {
    const out = await withEngine(factory, (engine) =>
      engine.applyMigrations({ migrationsList: migrationsList(), filters: NO_FILTER }),
    );
    return out.appliedMigrationNames;
  } finally {
    await factory.close();
  }
}

/**
 * The SQL that brings prisma/migrations up to prisma/schema.prisma (migrations replayed on a throw-away
 * in-memory PGlite, so no server is needed); "" when they are in sync. This is `prisma migrate diff
 * --from-migrations --to-schema --script`, used both by db:check and to create a migration.
 */
export async function migrationsDrift(): Promise<string> {
  // The engine's own database is never written here (diff replays migrations on its shadow database).
  const factory = await migrationAdapterFactory({
    kind: "pglite",
    dataDir: "memory://db-check",
    display: "pglite:memory://db-check",
  });
  const list = migrationsList();
  return withEngine(factory, async (engine) => {
    const result = await engine.diff({
      from: list.migrationDirectories.length ? { tag: "migrations", ...list } : { tag: "empty" },
      to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: readSchema() }] },
      script: true,
      exitCode: true,
      filters: NO_FILTER,
    });
    const sql = (result.stdout ?? "").trim();
    return sql.startsWith("-- This is an empty migration.") ? "" : sql;
  });
}

function timestamp(date = new Date()): string {
  return date.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

/** Writes prisma/migrations/<timestamp>_<name>/migration.sql with the drift SQL; null when in sync. */
export async function createMigration(name: string): Promise<string | null> {
  const sql = await migrationsDrift();
  if (!sql) return null;
  const folder = `${timestamp()}_${name}`;
  fs.mkdirSync(path.join(migrationsDir, folder), { recursive: true });
  fs.writeFileSync(path.join(migrationsDir, folder, "migration.sql"), `${sql}\n`);
  const lock = path.join(migrationsDir, "migration_lock.toml");
  if (!fs.existsSync(lock)) {
    fs.writeFileSync(
      lock,
      '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
    );
  }
  return folder;
}
