// `tsx sample-app/src/migrate.ts` (image: `node dist/migrate.js`): applies pending migrations and
// the first seed, prints what it applied, and exits. `--status` only reports, changing nothing.
// Release step 3 runs this on its own, before the new version starts (code release != data release).
import { ConfigError, describeDatabase, loadConfig } from "./config.ts";
import { openDatabase } from "./db.ts";
import { createLogger } from "./logger.ts";
import { migrationStatus, runMigrations } from "./migrations.ts";

async function main(argv: string[]): Promise<number> {
  const statusOnly = argv.includes("--status");
  const unknown = argv.filter((a) => a !== "--status");
  if (unknown.length > 0) {
    console.error(`usage: migrate [--status]  (unknown argument: ${unknown.join(" ")})`);
    return 2;
  }
  const config = loadConfig();
  console.log(`database: ${describeDatabase(config.database)}`);
  const db = await openDatabase(
    config.database,
    createLogger(config.logLevel, (line) => process.stderr.write(`${line}\n`)),
  );
  try {
    if (!statusOnly) {
      const result = await runMigrations(db);
      for (const step of result.applied) console.log(`applied: ${step.id} (${step.kind}) - ${step.summary}`);
      if (result.applied.length === 0) console.log("applied: nothing, the database was already up to date");
    }
    const status = await migrationStatus(db);
    for (const step of status.applied)
      console.log(`  done     ${step.id.padEnd(28)} ${step.appliedAt}  ${step.summary}`);
    for (const id of status.pending) console.log(`  pending  ${id}`);
    const [counts] = status.pending.includes("0001_create_menu_tables")
      ? []
      : await db.query<{ scenes: number; dishes: number }>(
          "SELECT (SELECT count(*) FROM meal_scenes)::int AS scenes, (SELECT count(*) FROM dishes)::int AS dishes",
        );
    console.log(
      `status: ${status.applied.length} applied, ${status.pending.length} pending` +
        (counts ? `; ${counts.scenes} scenes, ${counts.dishes} dishes` : ""),
    );
    return statusOnly || status.pending.length === 0 ? 0 : 1;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof ConfigError || err instanceof Error ? `migrate failed: ${err.message}` : err);
    process.exit(1);
  },
);
