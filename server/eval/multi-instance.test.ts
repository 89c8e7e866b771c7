import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../db/generated/client";
import type { DatabaseTarget } from "../db/url";
import { createEvalTestDb, questions, seedAgent, seedSet, startModelServer, type ModelServer } from "./testing";
import { EvalQueue, registerEvalQueue } from "./queue";
import { createRun, getRun, listItems, startRun } from "./index";

/**
 * Several app instances on one PostgreSQL server share a run's items through the queue: two workers answer one
 * run together (more requests in flight than one instance's concurrency allows), and every item is answered once.
 * Skipped with a printed notice when no PostgreSQL server is reachable.
 */
const ADMIN_URL = process.env.FLOWBENCH_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

async function reachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

const hasPg = await reachable();
if (!hasPg) console.warn("[eval] NOTICE: no PostgreSQL server reachable: the multi-instance queue test is SKIPPED");

describe.skipIf(!hasPg)("two app instances on one PostgreSQL server", () => {
  const name = `flowbench_mi_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  let db: PrismaClient;
  let target: DatabaseTarget;
  let close: () => Promise<void>;
  let model: ModelServer;
  const queues: EvalQueue[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    model = await startModelServer({ delayMs: 150 });
    process.env.OPENAI_BASE_URL = model.url;
    process.env.OPENAI_API_KEY = "sk-local-test";
    ({ db, target, close } = await createEvalTestDb(url.toString()));
  }, 60_000);

  afterAll(async () => {
    for (const q of queues) await q.stop().catch(() => undefined);
    registerEvalQueue(undefined);
    await close?.();
    await model?.close();
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it("share a run's items: both work on it, each item is answered exactly once", async () => {
    const agentId = (await seedAgent(db)).id;
    const n = 20;
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(n, { prefix: "mi" }), threshold: 10 });
    const run = await createRun(db, { setVersionId, mode: "in_platform", tier: "pipeline", concurrency: 2 }, null);
    // two "instances": separate queue workers on the same database (recoverActive off: others share it)
    for (let i = 0; i < 2; i++) queues.push(await EvalQueue.start({ db, target, worker: true, pollMs: 100, recoverActive: false, log: () => undefined }));
    registerEvalQueue(queues[0]);
    await startRun(db, run.id);
    const until = Date.now() + 30_000;
    while ((await getRun(db, run.id)).status !== "awaiting_review") {
      if (Date.now() > until) {
        const left = (await listItems(db, run.id, {})).items.filter((i) => i.status !== "answered");
        throw new Error(`the run did not finish: ${JSON.stringify((await getRun(db, run.id)).progress)}; ${JSON.stringify(left.map((i) => [i.status, i.attempts, i.error]))}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const items = (await listItems(db, run.id, {})).items;
    expect(items.every((i) => i.status === "answered" && i.traceId)).toBe(true);
    expect(model.answered.size).toBe(n);
    for (const [question, count] of model.answered) expect(count, question).toBe(1);
    // both instances took jobs of the run (answer and judge jobs)
    expect(queues[0]!.processed).toBeGreaterThan(0);
    expect(queues[1]!.processed).toBeGreaterThan(0);
  }, 120_000);
});
