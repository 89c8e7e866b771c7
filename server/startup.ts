import { EnvError, env } from "./env";
import { databaseTarget, getDb } from "./db/client";
import { deployMigrations } from "./db/migrate";
import { bootstrapAccess } from "./auth/bootstrap";

export async function startServer(): Promise<void> {
  try {
    env();
  } catch (e) {
    if (e instanceof EnvError) {
      console.error(`[flowbench] ${e.message}\nFix the variable(s) above (see .env.example) and start again.`);
      process.exit(1);
    }
    throw e;
  }
  const target = databaseTarget();
  const started = Date.now();
  try {
    const applied = await deployMigrations(target);
    console.log(
      `[flowbench] database ${target.display}: ${applied.length ? `applied ${applied.join(", ")}` : "schema up to date"} (${Date.now() - started} ms)`,
    );
    await bootstrapAccess(await getDb(), env());
  } catch (e) {
    console.error(`[flowbench] could not prepare the database ${target.display}: ${(e as Error).message}`);
    process.exit(1);
  }
}
