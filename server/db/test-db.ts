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
 * The migrated empty database as a PGlite dump, made once per set of migrations and kept in the temp folder
 * (named by a hash of every migration's SQL and PGlite's version), so a test database loads it (about 1 s) instead of running the
 * migrations through the schema engine (about 4 s each time). The dump is made by `deployMigrations` itself, so a
 * test database is exactly what start-up would make; `db:check` and the servers' start-up still run the migrations.
 */
async function migratedDump(): Promise<Blob> {
  const list = migrationsList();
  const hash = crypto.createHash("sha256");
  for (const m of list.migrationDirectories) hash.update(`${m.path}\0${m.migrationFile.content.value}\0`);
  // the dump's format is PGlite's: a different PGlite version makes its own
  hash.update(fs.readFileSync(path.resolve(list.baseDir, "../../node_modules/@electric-sql/pglite/package.json")));
  const file = path.join(os.tmpdir(), `flowbench-test-db-${hash.digest("hex").slice(0, 16)}.tar`);
  if (!fs.existsSync(file)) {
    const dataDir = `memory://template-${crypto.randomUUID()}`;
    await deployMigrations({ kind: "pglite", dataDir, display: `pglite:${dataDir}` });
    const dump = await (await openPglite(dataDir)).dumpDataDir("none");
    await closePglite(dataDir);
    // written aside and renamed, so a test file running at the same time never reads half a dump
    const partial = `${file}.${process.pid}.${crypto.randomUUID()}`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  }
  return new Blob([fs.readFileSync(file)]);
}

/** A fresh in-memory PGlite database with every migration applied (from the dump above); `name` prefixes its id. */
export async function createMigratedMemoryDb(name = "test"): Promise<DatabaseTarget> {
  const target = parseDatabaseUrl(`pglite:memory://${name}-${crypto.randomUUID()}`);
  if (target.kind !== "pglite") throw new Error("unreachable: a pglite URL");
  await openPglite(target.dataDir, { loadDataDir: await migratedDump() });
  return target;
}

/** A fresh in-memory PGlite with every migration applied, for service tests. */
export async function createTestDb(): Promise<{ db: PrismaClient; close: () => Promise<void> }> {
  const target = await createMigratedMemoryDb();
  const db = prismaClient(await appAdapterFactory(target));
  return {
    db,
    close: async () => {
      await db.$disconnect();
      if (target.kind === "pglite") await closePglite(target.dataDir);
    },
  };
}
