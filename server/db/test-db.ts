import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PrismaClient } from "./generated/client";
import { prismaClient } from "./client";
import { appAdapterFactory, closePglite, openPglite } from "./adapters";
import { deployMigrations, migrationsList } from "./migrate";
import { parseDatabaseUrl, type DatabaseTarget } from "./url";

/**
 * The migrated empty database as a PGlite dump, made once per set of migrations and kept in the temp folder (named by
 * a hash of every migration's SQL and PGlite's version), so a test database loads it (about 1.5 s) instead of running
 * the migrations through the schema engine (about 4 s each time). The dump is made by `deployMigrations` itself, so a
 * test database is exactly what start-up would make; `db:check` and the servers' start-up still run the migrations.
 * Read once per process.
 */
let dump: Promise<Blob> | undefined;
function migratedDump(): Promise<Blob> {
  dump ??= (async () => new Blob([fs.readFileSync(await migratedDumpFile())]))();
  return dump;
}

let dumpFile: Promise<string> | undefined;
function migratedDumpFile(): Promise<string> {
  dumpFile ??= (async () => {
    const list = migrationsList();
    const hash = crypto.createHash("sha256");
    for (const m of list.migrationDirectories) hash.update(`${m.path}\0${m.migrationFile.content.value}\0`);
    // the dump's format is PGlite's: a different PGlite version makes its own
    hash.update(fs.readFileSync(path.resolve(list.baseDir, "../../node_modules/@electric-sql/pglite/package.json")));
    const file = path.join(os.tmpdir(), `flowbench-test-db-${hash.digest("hex").slice(0, 16)}.tar`);
    if (!fs.existsSync(file)) {
      const template = memoryTarget("template");
      await deployMigrations(template);
      const made = await (await openPglite(template.dataDir)).dumpDataDir("none");
      await closePglite(template.dataDir);
      // written aside and renamed, so a test file running at the same time never reads half a dump
      const partial = `${file}.${process.pid}.${crypto.randomUUID()}`;
      fs.writeFileSync(partial, Buffer.from(await made.arrayBuffer()));
      fs.renameSync(partial, file);
    }
    return file;
  })();
  return dumpFile;
}

let templateDir: Promise<string> | undefined;
/** The migrated empty database as a PGlite folder beside the dump (made from it once, then reused). */
function migratedTemplateDir(): Promise<string> {
  templateDir ??= (async () => {
    const file = await migratedDumpFile();
    const dir = file.replace(/\.tar$/, ".pgdata");
    if (!fs.existsSync(dir)) {
      // made aside and renamed, like the dump; a process that loses the race drops its own copy
      const partial = `${dir}.${process.pid}.${crypto.randomUUID()}`;
      await openPglite(partial, { loadDataDir: new Blob([fs.readFileSync(file)]) });
      await closePglite(partial);
      try {
        fs.renameSync(partial, dir);
      } catch (e) {
        fs.rmSync(partial, { recursive: true, force: true });
        if (!fs.existsSync(dir)) throw e;
      }
    }
    return dir;
  })();
  return templateDir;
}

/**
 * Fills `dataDir` (absent or empty) with the migrated empty database, for a server started on `pglite:<dataDir>` by
 * tests: a copy of a template folder (a fraction of a second) instead of every migration at start-up (about 4 s on
 * 2 cores). Start-up still runs the schema engine, which finds nothing to apply.
 */
export async function fillMigratedPgliteDir(dataDir: string): Promise<void> {
  fs.cpSync(await migratedTemplateDir(), dataDir, { recursive: true });
}

type PgliteTarget = Extract<DatabaseTarget, { kind: "pglite" }>;
const memoryTarget = (name: string): PgliteTarget => {
  const dataDir = `memory://${name}-${crypto.randomUUID()}`;
  return { kind: "pglite", dataDir, display: `pglite:${dataDir}` };
};

/** A fresh in-memory PGlite database with every migration applied (from the dump above); `name` prefixes its id. */
async function createMigratedMemoryDb(name = "test"): Promise<PgliteTarget> {
  const target = memoryTarget(name);
  await openPglite(target.dataDir, { loadDataDir: await migratedDump() });
  return target;
}

/**
 * A fresh database with every migration applied, for service tests: an in-memory PGlite (`name` prefixes its id), or
 * the empty PostgreSQL database at `url` (migrated here; see test-postgres.ts for making one). `target` lets a queue
 * share the instance.
 */
export async function createTestDb(
  url?: string,
  name = "test",
): Promise<{ db: PrismaClient; target: DatabaseTarget; close: () => Promise<void> }> {
  const target = url ? parseDatabaseUrl(url) : await createMigratedMemoryDb(name);
  if (url) await deployMigrations(target);
  const db = prismaClient(await appAdapterFactory(target));
  return {
    db,
    target,
    close: async () => {
      await db.$disconnect();
      if (target.kind === "pglite") await closePglite(target.dataDir);
    },
  };
}
