/**
 * Database CLI (no native Prisma engine needed):
 *   npm run db:migrate -- <name>   create a migration from prisma/schema.prisma, then apply it to DATABASE_URL
 *   npm run db:deploy              apply pending migrations to DATABASE_URL
 *   npm run db:check               fail when prisma/migrations does not produce prisma/schema.prisma
 * With the embedded database, stop the server first: only one process may open a PGlite folder.
 */
import { createMigration, deployMigrations, migrationsDrift } from "../server/db/migrate";
import { closePglite } from "../server/db/adapters";
import { parseDatabaseUrl } from "../server/db/url";

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
    default:
      console.error("usage: tsx scripts/db.ts migrate <name> | deploy | check");
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
