import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { openPglite, pgliteHolder } from "./adapters";
import { migrationsList } from "./migrate";
import type { DatabaseTarget } from "./url";

/**
 * Backups of the platform's database (`npm run db:backup -- FILE`, `npm run db:restore -- FILE`; README
 * "Backups and releases"). The embedded database: its data folder as PGlite dumps it (a gzipped tar), taken while no
 * server has the folder open (opening it replays the log of one that stopped or died, so the copy is consistent), or
 * by the server that has it open (GET /api/admin/backup, which `npm run db:backup` asks when FLOWBENCH_URL and
 * FLOWBENCH_TOKEN are set). A PostgreSQL server: `pg_dump --format=custom`, consistent while servers run. A restore
 * first reads which migrations the backup holds and refuses one from a newer schema (a migration this code does not
 * know), naming both; an older one is restored and then migrated forward, as start-up would.
 */
export class BackupError extends Error {}

const PGDUMP_MAGIC = "PGDMP";

/** The migrations this code knows, oldest first (prisma/migrations). */
function knownMigrations(): string[] {
  return migrationsList().migrationDirectories.map((d) => d.path);
}

/** Refuses a folder another live process has open (its `<folder>.lock`: server/db/adapters.ts). */
function assertClosed(dataDir: string, what: string): void {
  const pid = pgliteHolder(dataDir);
  if (pid !== null)
    throw new BackupError(
      `${what}: the embedded database at ${dataDir} is open in process ${pid}: stop the server first${what === "backup" ? ", or back it up while it runs: set FLOWBENCH_URL (the server's address) and FLOWBENCH_TOKEN (an admin's API token) and run this again" : ""}`,
    );
}

/**
 * The embedded database's folder as a gzipped tar, with the migrations it holds: a checkpoint first (so opening the
 * copy has little log to replay), then PGlite's dump, which copies the folder in one synchronous step of the thread
 * every query of this instance runs on, so no write lands halfway through the copy.
 */
async function dumpEmbedded(db: PGlite): Promise<{ blob: Blob; migrations: string[] }> {
  const migrations = await appliedMigrations(db);
  await db.exec("CHECKPOINT");
  return { blob: await db.dumpDataDir("gzip"), migrations };
}

/**
 * A backup of the embedded database this server runs on, taken while it runs (GET /api/admin/backup): from the
 * process's own PGlite instance (server/db/adapters.ts), so nothing else opens the folder.
 */
export async function backupRunningEmbedded(target: DatabaseTarget): Promise<{ blob: Blob; migrations: string[] }> {
  if (target.kind !== "pglite" || target.dataDir.startsWith("memory://"))
    throw new BackupError("backup: this server does not run on an embedded database in a folder");
  return dumpEmbedded(await openPglite(target.dataDir));
}

/**
 * The headers of GET /api/admin/backup's answer: the newest migration the backup holds, and the folder it is of (its
 * real path), by which `npm run db:backup` checks that the server it asked runs on the database it was asked to back up.
 */
export const BACKUP_SCHEMA_HEADER = "x-flowbench-schema";
export const BACKUP_FOLDER_HEADER = "x-flowbench-database-folder";

/** A folder's real path (symbolic links resolved), or its absolute path when it cannot be resolved. */
export function folderIdentity(dataDir: string): string {
  try {
    return fs.realpathSync(dataDir);
  } catch {
    return path.resolve(dataDir);
  }
}

/**
 * Writes a backup of the embedded database a running server has open, asked of that server (`url`, an admin's
 * `token`): GET /api/admin/backup.
 */
async function backupThroughServer(
  url: string,
  token: string,
  file: string,
  dataDir: string,
): Promise<{ migrations: string[]; bytes: number }> {
  let res: Response;
  try {
    res = await fetch(new URL("/api/admin/backup", url), { headers: { authorization: `Bearer ${token}` } });
  } catch (e) {
    throw new BackupError(`backup: the server at ${url} did not answer (${(e as Error).message})`);
  }
  if (!res.ok) {
    const text = await res.text();
    let message = text.slice(0, 500);
    try {
      message = (JSON.parse(text) as { error: { message: string } }).error.message;
    } catch {
      /* not the error shape: the text as it is */
    }
    throw new BackupError(`backup: the server at ${url} answered ${res.status}: ${message}`);
  }
  const folder = res.headers.get(BACKUP_FOLDER_HEADER);
  if (folder !== folderIdentity(dataDir)) {
    await res.body?.cancel();
    throw new BackupError(
      `backup: the server at ${url} runs on another database (${folder ?? "not named"}), not on ${folderIdentity(dataDir)}: nothing written`,
    );
  }
  const bytes = Buffer.from(await res.arrayBuffer());
  const partial = `${file}.partial`;
  fs.writeFileSync(partial, bytes);
  fs.renameSync(partial, file);
  const schema = res.headers.get(BACKUP_SCHEMA_HEADER);
  return { migrations: schema ? [schema] : [], bytes: bytes.length };
}

function run(cmd: string, args: string[], what: string): string {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (r.error)
    throw new BackupError(
      `${what}: ${cmd} could not be started (${r.error.message}); install PostgreSQL's client tools (Debian: postgresql-client)`,
    );
  if (r.status !== 0)
    throw new BackupError(`${what}: ${cmd} failed (exit ${r.status}): ${r.stderr.trim().slice(0, 2000)}`);
  return r.stdout;
}

/**
 * Writes a backup of `target` to `file`; returns what it holds and whether it was taken `online`. An embedded
 * database that a running server has open is backed up through that server when `server` names it (FLOWBENCH_URL and
 * FLOWBENCH_TOKEN for `npm run db:backup`), and refused otherwise.
 */
export async function backupDatabase(
  target: DatabaseTarget,
  file: string,
  server?: { url?: string; token?: string },
): Promise<{ migrations: string[]; bytes: number; online: boolean }> {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  if (target.kind === "pglite") {
    if (target.dataDir.startsWith("memory://"))
      throw new BackupError("backup: an in-memory database has nothing to back up");
    if (!fs.existsSync(path.join(target.dataDir, "PG_VERSION")))
      throw new BackupError(`backup: no embedded database at ${target.dataDir}`);
    if (pgliteHolder(target.dataDir) !== null && server?.url && server.token)
      return { ...(await backupThroughServer(server.url, server.token, file, target.dataDir)), online: true };
    assertClosed(target.dataDir, "backup");
    const db = await PGlite.create({ dataDir: target.dataDir });
    try {
      const { blob, migrations } = await dumpEmbedded(db);
      const partial = `${file}.partial`;
      fs.writeFileSync(partial, Buffer.from(await blob.arrayBuffer()));
      fs.renameSync(partial, file);
      return { migrations, bytes: blob.size, online: false };
    } finally {
      await db.close();
    }
  }
  const partial = `${file}.partial`;
  run("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${partial}`, target.url], "backup");
  fs.renameSync(partial, file);
  return { migrations: migrationsInDump(file), bytes: fs.statSync(file).size, online: false };
}

async function appliedMigrations(db: PGlite): Promise<string[]> {
  try {
    const r = await db.query<{ migration_name: string }>(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
    );
    return r.rows.map((x) => x.migration_name);
  } catch {
    return [];
  }
}

/** The applied migrations recorded in a pg_dump archive (its _prisma_migrations rows, read with pg_restore). */
function migrationsInDump(file: string): string[] {
  const sql = run("pg_restore", ["--data-only", "--table=_prisma_migrations", "--file=-", file], "restore");
  const lines = sql.split("\n");
  const start = lines.findIndex((l) => /^COPY \S*_prisma_migrations \(/.test(l));
  if (start < 0) return [];
  const columns = /\((.*)\) FROM stdin;/.exec(lines[start]!)?.[1]?.split(", ") ?? [];
  const name = columns.indexOf("migration_name");
  const finished = columns.indexOf("finished_at");
  const rolledBack = columns.indexOf("rolled_back_at");
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === "\\.") break;
    const cells = line.split("\t");
    if (cells[finished] !== "\\N" && cells[rolledBack] === "\\N" && cells[name]) out.push(cells[name]);
  }
  return out.sort();
}

/** What a backup file is: a pg_dump archive or an embedded database's folder (gzip). */
function kindOf(file: string): "postgresql" | "pglite" {
  const head = Buffer.alloc(5);
  const fd = fs.openSync(file, "r");
  try {
    fs.readSync(fd, head, 0, 5, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (head.toString("latin1") === PGDUMP_MAGIC) return "postgresql";
  if (head[0] === 0x1f && head[1] === 0x8b) return "pglite";
  throw new BackupError(
    `restore: ${file} is not a Flowbench backup (neither a pg_dump archive nor a gzipped PGlite folder)`,
  );
}

/** Refuses a backup that holds a migration this code does not know: it comes from a newer version of Flowbench. */
function assertNotNewer(backup: string[]): { pending: number } {
  const known = knownMigrations();
  const unknown = backup.filter((m) => !known.includes(m));
  if (unknown.length)
    throw new BackupError(
      `restore: the backup is from a newer schema (backup: ${backup.at(-1)}; this code: ${known.at(-1)}; unknown to this code: ${unknown.join(", ")}). Restore it with the Flowbench version that made it.`,
    );
  return { pending: known.filter((m) => !backup.includes(m)).length };
}

/**
 * Restores `file` into `target`. The embedded database's folder is replaced; the folder it held is kept beside it as
 * `<folder>.before-restore-<time>` (nothing is lost by a restore). Returns the backup's newest migration and how
 * many newer ones this code then has to apply (start-up or db:deploy applies them). On PostgreSQL the database's
 * schemas `public` and `pgboss` are replaced in one transaction: a failing restore changes nothing.
 */
export async function restoreDatabase(
  target: DatabaseTarget,
  file: string,
): Promise<{ migrations: string[]; pending: number; keptAside?: string }> {
  if (!fs.existsSync(file)) throw new BackupError(`restore: no file ${file}`);
  const kind = kindOf(file);
  if (kind !== target.kind)
    throw new BackupError(
      `restore: ${file} is a backup of ${kind === "pglite" ? "an embedded (PGlite)" : "a PostgreSQL"} database, and DATABASE_URL names ${target.kind === "pglite" ? "an embedded" : "a PostgreSQL"} one`,
    );
  if (target.kind === "pglite") {
    if (target.dataDir.startsWith("memory://")) throw new BackupError("restore: name a data folder, not memory://");
    const blob = new Blob([fs.readFileSync(file)]);
    // read the backup in memory first: nothing on disk changes when it is refused
    const probe = await PGlite.create({ loadDataDir: blob });
    let migrations: string[];
    try {
      migrations = await appliedMigrations(probe);
    } finally {
      await probe.close();
    }
    const { pending } = assertNotNewer(migrations);
    let keptAside: string | undefined;
    if (fs.existsSync(target.dataDir) && fs.readdirSync(target.dataDir).length) {
      assertClosed(target.dataDir, "restore");
      keptAside = `${target.dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      fs.renameSync(target.dataDir, keptAside);
    }
    fs.mkdirSync(target.dataDir, { recursive: true });
    const db = await PGlite.create({ dataDir: target.dataDir, loadDataDir: blob });
    await db.close();
    return { migrations, pending, ...(keptAside ? { keptAside } : {}) };
  }
  const migrations = migrationsInDump(file);
  const { pending } = assertNotNewer(migrations);
  // one transaction: the app's schemas dropped and the backup's restored, or nothing changed (a newer database's
  // tables must not survive beside an older backup's, or start-up's migrations would collide with them)
  const script = run("pg_restore", ["--no-owner", "--no-privileges", "--file=-", file], "restore");
  const r = spawnSync(
    "psql",
    ["--no-psqlrc", "--quiet", "--single-transaction", "-v", "ON_ERROR_STOP=1", `--dbname=${target.url}`],
    {
      input: `DROP SCHEMA IF EXISTS pgboss CASCADE;\nDROP SCHEMA IF EXISTS public CASCADE;\nCREATE SCHEMA public;\n${script}`,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  if (r.error)
    throw new BackupError(`restore: psql could not be started (${r.error.message}); install postgresql-client`);
  if (r.status !== 0)
    throw new BackupError(
      `restore: psql failed (exit ${r.status}), nothing was changed: ${r.stderr.trim().slice(0, 2000)}`,
    );
  return { migrations, pending };
}
