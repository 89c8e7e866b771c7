import { EnvError, env } from "./core/env";
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
  if (env().EVAL_WORKER === "on") {
    // the evaluation answering queue (pg-boss) and its worker, in this server process, after migrations
    try {
      const { startEvalWorker } = await import("./eval/queue");
      await startEvalWorker(await getDb(), target);
    } catch (e) {
      console.error(`[flowbench] the evaluation queue did not start (in-platform runs will not be answered): ${(e as Error).message}`);
    }
  }
  if (env().FLOWBENCH_SEED_SAMPLE_AGENT === "on") {
    // In the background: the sample agent's provisioning checks its Python code in the sandbox (a cold start of
    // several seconds) and the server should answer meanwhile.
    void (async () => {
      const { seedSampleAgent } = await import("./seed");
      await seedSampleAgent(await getDb());
    })().catch((e: unknown) => console.error(`[flowbench] could not seed the sample agent: ${(e as Error).message}`));
  }
}
