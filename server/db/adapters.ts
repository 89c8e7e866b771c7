import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { DatabaseTarget } from "./url";

type Globals = { __flowbenchPglite?: Map<string, Promise<PGlite>> };
const globals = globalThis as typeof globalThis & Globals;

/**
 * One PGlite instance per data folder per process. PGlite has no cross-process lock and two instances in one
 * process corrupt the folder, so the Prisma client and the migration engine must share this one
 * (and `next dev` re-evaluating modules must not open a second: hence globalThis).
 */
export function openPglite(dataDir: string, { loadDataDir }: { loadDataDir?: Blob } = {}): Promise<PGlite> {
  globals.__flowbenchPglite ??= new Map();
  let db = globals.__flowbenchPglite.get(dataDir);
  if (!db) {
    const inMemory = dataDir.startsWith("memory://");
    if (!inMemory) {
      fs.mkdirSync(dataDir, { recursive: true }); // PGlite does not create parents
      holdFolder(dataDir);
    }
    // `loadDataDir`: start from a dump of another database (tests start from an already migrated one)
    db = PGlite.create({ ...(inMemory ? {} : { dataDir }), ...(loadDataDir ? { loadDataDir } : {}) });
    globals.__flowbenchPglite.set(dataDir, db);
  }
  return db;
}

export async function closePglite(dataDir: string): Promise<void> {
  const db = globals.__flowbenchPglite?.get(dataDir);
  if (!db) return;
  globals.__flowbenchPglite?.delete(dataDir);
  await (await db).close();
  releaseFolder(dataDir);
}

/**
 * `<folder>.lock` beside an open embedded database, holding this process's id, removed when it closes the folder or
 * exits (also by Next.js's own exit on SIGTERM; a killed process leaves it with an id no process has). PGlite has no
 * cross-process lock of its own: `npm run db:backup`/`db:restore` read this one to refuse a folder a server has open
 * (`pgliteHolder`).
 */
const held = new Set<string>();
function holdFolder(dataDir: string): void {
  try {
    fs.writeFileSync(lockFileOf(dataDir), String(process.pid));
    if (!held.size) process.once("exit", () => [...held].forEach(releaseFolder));
    held.add(dataDir);
  } catch {
    /* a read-only parent: nothing to record */
  }
}
function releaseFolder(dataDir: string): void {
  held.delete(dataDir);
  try {
    if (fs.readFileSync(lockFileOf(dataDir), "utf8") === String(process.pid)) fs.rmSync(lockFileOf(dataDir));
  } catch {
    /* already gone */
  }
}
const lockFileOf = (dataDir: string) => `${dataDir.replace(/\/+$/, "")}.lock`;

/** The id of another live process that has `dataDir` open, or null. */
export function pgliteHolder(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(lockFileOf(dataDir), "utf8"));
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM" ? pid : null;
  }
}

/**
 * The adapter factory the application's Prisma client uses. On a PostgreSQL server its sessions run with JIT
 * compilation off: every query here is short, and a plan whose estimate crosses `jit_above_cost` (stale statistics
 * after a bulk write are enough) spent 0.5 s compiling a filter that then ran in 35 ms (the online loop's counts). An
 * `options` parameter in DATABASE_URL takes precedence (node-postgres lets the URL's parameters win).
 */
export async function appAdapterFactory(target: DatabaseTarget): Promise<SqlMigrationAwareDriverAdapterFactory> {
  if (target.kind === "pglite") return new PrismaPGlite(await openPglite(target.dataDir));
  return new PrismaPg({ connectionString: target.url, max: 10, options: "-c jit=off" });
}

// ---- Migration-only wrappers for adapter defects (prisma 7.10 / pglite-prisma-adapter 0.7.2) ----

type Queryable = {
  executeScript(script: string): Promise<void>;
  onError(error: unknown): never;
  client: { query(sql: string): Promise<unknown>; exec?(sql: string): Promise<unknown> };
};
type PerformIO = (query: unknown) => Promise<{ fields: Array<{ dataTypeID: number }> }>;

let charPatched = false;
/**
 * adapter-pg cannot deserialize Postgres' internal `"char"` type (OID 18), which the schema engine's catalog
 * queries return. Report it as text (OID 25); pg already hands the value over as a string.
 */
function patchCharType(adapter: object): void {
  if (charPatched) return;
  const queryableProto = Object.getPrototypeOf(Object.getPrototypeOf(adapter)) as { performIO: PerformIO };
  const original = queryableProto.performIO;
  queryableProto.performIO = async function (this: unknown, query: unknown) {
    const result = await original.call(this, query);
    for (const field of result.fields) if (field.dataTypeID === 18) field.dataTypeID = 25;
    return result;
  };
  charPatched = true;
}

/** adapter-pg splits scripts on `;` (breaking `DO $$` bodies and literals): send the script whole. */
function wholeScriptPg<T extends object>(adapter: T): T {
  const q = adapter as unknown as Queryable;
  q.executeScript = async (script: string) => {
    try {
      await q.client.query(script);
    } catch (error) {
      q.onError(error);
    }
  };
  return adapter;
}

/** pglite-prisma-adapter does not await exec(): a failing migration would be recorded as applied. */
function awaitedScriptPglite<T extends object>(adapter: T): T {
  const q = adapter as unknown as Queryable;
  q.executeScript = async (script: string) => {
    try {
      await q.client.exec!(script);
    } catch (error) {
      q.onError(error);
    }
  };
  return adapter;
}

function shadowUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * The adapter factory handed to Prisma's WebAssembly schema engine. Besides the wrappers above it builds the
 * shadow database itself: adapter-pg's connectToShadowDb() lets `connectionString` override `database` and
 * so would run migration SQL against the MAIN database.
 */
export type MigrationAdapterFactory = SqlMigrationAwareDriverAdapterFactory & {
  /** closes every connection the engine opened (on a server; the shared PGlite instance stays open) */
  close(): Promise<void>;
};

export async function migrationAdapterFactory(target: DatabaseTarget): Promise<MigrationAdapterFactory> {
  if (target.kind === "pglite") {
    const inner = new PrismaPGlite(await openPglite(target.dataDir));
    return {
      close: async () => undefined,
      provider: inner.provider,
      adapterName: inner.adapterName,
      connect: async () => awaitedScriptPglite(await inner.connect()),
      connectToShadowDb: async () => {
        const shadow = await PGlite.create();
        const adapter = awaitedScriptPglite(await new PrismaPGlite(shadow).connect());
        const dispose = adapter.dispose.bind(adapter);
        adapter.dispose = async () => {
          await dispose();
          await shadow.close();
        };
        return adapter;
      },
    };
  }
  const inner = new PrismaPg({ connectionString: target.url, max: 2 });
  const opened: Array<{ dispose(): Promise<void> }> = [];
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    close: async () => {
      for (const a of opened.splice(0)) await a.dispose().catch(() => undefined);
    },
    connect: async () => {
      const adapter = await inner.connect();
      opened.push(adapter);
      patchCharType(adapter);
      return wholeScriptPg(adapter);
    },
    connectToShadowDb: async () => {
      const explicit = process.env.SHADOW_DATABASE_URL;
      if (explicit) {
        const adapter = await new PrismaPg({ connectionString: explicit, max: 2 }).connect();
        patchCharType(adapter);
        return wholeScriptPg(adapter);
      }
      const name = `flowbench_shadow_${crypto.randomUUID().replaceAll("-", "")}`;
      const admin = wholeScriptPg(await inner.connect());
      await admin.executeScript(`CREATE DATABASE "${name}"`);
      const adapter = wholeScriptPg(
        await new PrismaPg({ connectionString: shadowUrl(target.url, name), max: 2 }).connect(),
      );
      patchCharType(adapter);
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await admin.executeScript(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.dispose();
      };
      return adapter;
    },
  };
}
