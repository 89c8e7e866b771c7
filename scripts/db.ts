/**
 * Database CLI (no native Prisma engine needed):
 *   npm run db:migrate -- <name>   create a migration from prisma/schema.prisma, then apply it to DATABASE_URL
 *   npm run db:deploy              apply pending migrations to DATABASE_URL
 *   npm run db:check               fail when prisma/migrations does not produce prisma/schema.prisma
 *   npm run db:backup -- FILE      back up DATABASE_URL to FILE (embedded: with the server stopped, or while it runs
 *                                  through it: FLOWBENCH_URL and FLOWBENCH_TOKEN; PostgreSQL: pg_dump)
 *   npm run db:restore -- FILE     restore FILE into DATABASE_URL (refuses a backup from a newer schema)
 * With the embedded database, stop the server first: only one process may open a PGlite folder.
 */
import { createMigration, deployMigrations, migrationsDrift } from "../server/db/migrate";
import { closePglite } from "../server/db/adapters";
import { parseDatabaseUrl } from "../server/db/url";
import { BackupError, backupDatabase, restoreDatabase } from "../server/db/backup";

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  const target = parseDatabaseUrl(process.env.DATABASE_URL);
  switch (command) {
    case "migrate": {
      const name = args.find((a) => !a.startsWith("-"));
      if (!name || !/^[a-z0-9_]+$/i.test(name)) {
        console.error("usage: npm run db:migrate -- <name>   (letters, digits and _ only)");
        return 2;
      }
      const created = await createMigration(name);
      console.log(
        created
          ? `created prisma/migrations/${created}/migration.sql`
          : "schema and migrations already in sync: nothing to create",
      );
      const applied = await deployMigrations(target);
      console.log(`applied to ${target.display}: ${applied.length ? applied.join(", ") : "nothing pending"}`);
      if (target.kind === "pglite") await closePglite(target.dataDir);
      return 0;
    }
    case "deploy": {
      const applied = await deployMigrations(target);
      console.log(`applied to ${target.display}: ${applied.length ? applied.join(", ") : "nothing pending"}`);
      if (target.kind === "pglite") await closePglite(target.dataDir);
      return 0;
    }
    case "check": {
      const drift = await migrationsDrift();
      if (drift) {
        console.error(
          "db:check FAILED: prisma/schema.prisma has changes no migration records. Run `npm run db:migrate -- <name>`.\nMissing SQL:\n" +
            drift,
        );
        return 1;
      }
      console.log("db:check ok: prisma/migrations matches prisma/schema.prisma");
      return 0;
    }
    case "backup":
    case "restore": {
      const file = args.find((a) => !a.startsWith("-"));
      if (!file) {
        console.error(`usage: npm run db:${command} -- FILE`);
        return 2;
      }
      try {
        if (command === "backup") {
          const b = await backupDatabase(target, file, {
            url: process.env.FLOWBENCH_URL,
            token: process.env.FLOWBENCH_TOKEN,
          });
          console.log(
            `backed up ${target.display} to ${file} (${b.bytes} bytes, schema ${b.migrations.at(-1) ?? "empty"}${b.online ? `; taken by the running server at ${process.env.FLOWBENCH_URL}` : ""})`,
          );
        } else {
          const r = await restoreDatabase(target, file);
          console.log(
            `restored ${file} into ${target.display} (schema ${r.migrations.at(-1) ?? "empty"}${r.pending ? `; ${r.pending} newer migration(s) are applied at the next start or by npm run db:deploy` : ""})${r.keptAside ? `; the folder it replaced is kept at ${r.keptAside}` : ""}`,
          );
        }
        return 0;
      } catch (e) {
        if (!(e instanceof BackupError)) throw e;
        console.error(e.message);
        return 1;
      }
    }
    default:
      console.error("usage: tsx scripts/db.ts migrate <name> | deploy | check | backup FILE | restore FILE");
      return 2;
  }
}

// The wasm engine keeps a handle open after free(): exit explicitly.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
