import { EnvError, env } from "./core/env";
import { setReadiness } from "./core/readiness";
import { databaseTarget } from "./db/url";
import { installClientAddress } from "./http/client-address";
import { installLingeringClose } from "./http/lingering-close";
import { installMethodsGuard, loadRouteMethods } from "./http/methods-guard";
import { installPathGuard } from "./http/path-guard";
import { installStartupProbes } from "./http/startup-probes";

/*
 * Only light modules are imported above (server/architecture.test.ts checks it): the probes answer as soon as
 * startServer begins. Everything heavy (the Prisma client, migrations, auth, the endpoint list) is imported
 * dynamically after them.
 */

/**
 * Traces a dead process left `running` become `interrupted`: on the embedded database (one process) all of them at
 * start-up; on a database server those older than the longest run can take, at start-up and then every minute.
 */
async function sweepInterruptedTraces(kind: "pglite" | "postgresql"): Promise<void> {
  const { markInterruptedTraces, staleRunningCutoff } = await import("./runtime/traces");
  const { RUN_LIMITS } = await import("./runtime/types");
  const { getDb } = await import("./db/client");
  const db = await getDb();
  const longest = Math.max(RUN_LIMITS.timeoutMs, env().EVAL_ITEM_TIMEOUT_SECONDS * 1000);
  const cutoff = () => (kind === "pglite" ? new Date() : staleRunningCutoff(longest));
  const n = await markInterruptedTraces(db, cutoff());
  if (n) console.log(`[flowbench] ${n} trace(s) left running by an earlier process marked interrupted`);
  if (kind === "postgresql") {
    setInterval(() => {
      markInterruptedTraces(db, staleRunningCutoff(longest)).catch((e: unknown) =>
        console.error(`[flowbench] trace sweep: ${(e as Error).message}`),
      );
    }, 60_000).unref();
  }
}

/**
 * OpenTelemetry (server/telemetry/otel.ts): the SDK is imported only when an OTLP endpoint is configured; otherwise
 * nothing of it is loaded and every span call is a no-op. A failure to start is logged and the server runs on.
 */
async function startTraces(): Promise<void> {
  const e = env();
  if (e.OTEL_SDK_DISABLED === "true" || !(e.OTEL_EXPORTER_OTLP_ENDPOINT || e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT))
    return;
  try {
    const { startOtel } = await import("./telemetry/otel");
    startOtel({
      serviceName: e.OTEL_SERVICE_NAME,
      serviceVersion: process.env.npm_package_version ?? "0.1.0",
      sampler: e.OTEL_TRACES_SAMPLER,
      samplerArg: e.OTEL_TRACES_SAMPLER_ARG,
      maxQueueSize: e.OTEL_BSP_MAX_QUEUE_SIZE,
      maxExportBatchSize: e.OTEL_BSP_MAX_EXPORT_BATCH_SIZE,
      scheduledDelayMillis: e.OTEL_BSP_SCHEDULE_DELAY,
      exportTimeoutMillis: e.OTEL_BSP_EXPORT_TIMEOUT,
      captureContent: e.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT === "true",
    });
    const to = e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? `${e.OTEL_EXPORTER_OTLP_ENDPOINT}/v1/traces`;
    console.log(`[flowbench] OpenTelemetry: spans go to ${new URL(to).origin} (OTLP/HTTP)`);
  } catch (err) {
    console.error(`[flowbench] OpenTelemetry did not start (no spans are exported): ${(err as Error).message}`);
  }
}

/** The database kind the probes report (an invalid DATABASE_URL is env()'s to report, just after). */
function databaseKind(): string {
  try {
    return databaseTarget().kind;
  } catch {
    return "unknown";
  }
}

export async function startServer(): Promise<void> {
  // first of all: liveness and readiness answer while the rest of start-up holds other requests
  setReadiness("starting", "checking the environment");
  installStartupProbes(databaseKind());
  try {
    env();
  } catch (e) {
    if (e instanceof EnvError) {
      console.error(`[flowbench] ${e.message}\nFix the variable(s) above (see .env.example) and start again.`);
      process.exit(1);
    }
    throw e;
  }
  await startTraces();
  const target = databaseTarget();
  setReadiness("starting", "applying migrations");
  installClientAddress(env().TRUSTED_PROXY_HOPS); // the address the login throttle counts, from the socket or proxies
  installMethodsGuard(); // the seven standard methods as Allow until the route table is loaded (below)
  installPathGuard(); // undecodable API paths: 400 before Next (proxy.ts no longer runs on API paths)
  installLingeringClose(); // an answer that closes mid-body lets the client finish writing and read it (no reset)
  const started = Date.now();
  const [{ getDb }, { deployMigrations }, { bootstrapAccess }, { loadSharedAuthSecret }] = await Promise.all([
    import("./db/client"),
    import("./db/migrate"),
    import("./auth/bootstrap"),
    import("./auth/secret"),
  ]).catch((e: unknown) => {
    setReadiness("failed", (e as Error).message);
    console.error(`[flowbench] start-up could not load its modules: ${(e as Error).message}`);
    return process.exit(1);
  });
  try {
    const applied = await deployMigrations(target, (m) => console.log(`[flowbench] ${m}`));
    console.log(
      `[flowbench] database ${target.display}: ${applied.length ? `applied ${applied.join(", ")}` : "schema up to date"} (${Date.now() - started} ms)`,
    );
    if (target.kind === "postgresql") await loadSharedAuthSecret(await getDb());
    await bootstrapAccess(await getDb(), env());
    await sweepInterruptedTraces(target.kind);
  } catch (e) {
    setReadiness("failed", (e as Error).message);
    console.error(`[flowbench] could not prepare the database ${target.display}: ${(e as Error).message}`);
    process.exit(1);
  }
  if (env().EVAL_WORKER === "on") {
    // the evaluation answering queue (pg-boss) and its worker, in this server process, after migrations; beside it the
    // online worker (sampled online judging, lead.created, alerts) on the same pg-boss
    try {
      // the judge comparison registers what its judge jobs do when done (server/eval/reports/judge-comparison.ts)
      const [{ startEvalWorker }] = await Promise.all([
        import("./eval/runs/worker"),
        import("./eval/reports/judge-comparison"),
      ]);
      const queue = await startEvalWorker(await getDb(), target);
      const { OnlineWorker } = await import("./eval/online/worker");
      await OnlineWorker.start({ db: await getDb(), boss: queue.boss });
    } catch (e) {
      console.error(
        `[flowbench] the evaluation queue did not start (in-platform runs will not be answered): ${(e as Error).message}`,
      );
    }
  }
  // the intent shadow listens to online answers (in the background; server/eval/shadow/)
  try {
    const [{ onOnlineAnswer }, { enqueueShadow, getEvalQueue }] = await Promise.all([
      import("./runtime"),
      import("./eval"),
    ]);
    const db = await getDb();
    // sampled chats become jobs of the durable queue; this or another instance's worker computes them
    onOnlineAnswer(async (answer) => void (await enqueueShadow(db, answer, await getEvalQueue(db))));
  } catch (e) {
    console.error(`[flowbench] the intent shadow is off: ${(e as Error).message}`);
  }
  // online judging, lead.created and alerts listen to online answers and their feedback (server/eval/online/watch.ts)
  try {
    const [{ onOnlineAnswer, onOnlineFeedback }, { watchOnlineAnswer }] = await Promise.all([
      import("./runtime"),
      import("./eval/online/watch"),
    ]);
    const db = await getDb();
    onOnlineAnswer(async (answer) => void (await watchOnlineAnswer(db, answer)));
    onOnlineFeedback(async (feedback) => void (await watchOnlineAnswer(db, feedback, { scored: true })));
  } catch (e) {
    console.error(`[flowbench] online judging and alerts are off: ${(e as Error).message}`);
  }
  // the REST route table (every endpoint, hence every service): loaded now, for the methods guard's route-specific Allow
  await loadRouteMethods().catch((e: unknown) =>
    console.error(`[flowbench] the route table did not load (405s name the seven methods): ${(e as Error).message}`),
  );
  if (env().FLOWBENCH_SEED_SAMPLE_AGENT !== "on") {
    setReadiness("ready");
    return;
  }
  // In the background: the sample agent's provisioning checks its Python code in the sandbox (a cold start of several
  // seconds) and the server answers meanwhile (liveness); it is ready once the seed has landed, since ready means every
  // start-up step is done (an empty agent list behind a ready probe was issue 28). A failed seed is logged and does
  // not keep the platform out of service.
  setReadiness("starting", "seeding the sample agent");
  void (async () => {
    const { seedSampleAgent } = await import("./seed");
    const { LOCKS, withStartupLock } = await import("./db/locks");
    // instances starting together: one seeds, the others then find the sample agent
    await withStartupLock(target, LOCKS.seed, async () => seedSampleAgent(await getDb()));
  })()
    .catch((e: unknown) => console.error(`[flowbench] could not seed the sample agent: ${(e as Error).message}`))
    .finally(() => setReadiness("ready"));
}
