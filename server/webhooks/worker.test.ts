import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../db/generated/client";
import type { DatabaseTarget } from "../db/url";
import { createPostgresTestDatabase, postgresReachable } from "../db/test-postgres";
import { createEvalTestDb } from "../eval/testing";
import { EvalQueue } from "../eval/runs/queue";

/**
 * The delivery worker on a PostgreSQL server (the integration suite covers both databases through a started app;
 * this one looks at the queue itself): an endpoint's deliveries go out one at a time, in the order they were made,
 * even when they wait in the queue together.
 */
const hasPg = await postgresReachable();
const received: string[] = [];
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    received.push(String(req.headers["webhook-id"]));
    setTimeout(() => res.end("ok"), 50);
  });
});
await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
const port = (receiver.address() as AddressInfo).port;
process.env.HTTP_ALLOWED_ORIGINS = `http://127.0.0.1:${port}`;
const { createWebhook, testWebhook } = await import("./service");

describe.skipIf(!hasPg)("webhook deliveries on PostgreSQL", () => {
  let db: PrismaClient;
  let target: DatabaseTarget;
  let close: () => Promise<void>;
  let database: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
  let queue: EvalQueue;
  beforeAll(async () => {
    database = await createPostgresTestDatabase({ prefix: "flowbench_wh" });
    ({ db, target, close } = await createEvalTestDb(database.url));
    queue = await EvalQueue.start({
      db,
      target,
      worker: true,
      pollMs: 100,
      recoverActive: false,
      log: () => undefined,
    });
  }, 60_000);
  afterAll(async () => {
    await queue?.stop().catch(() => undefined);
    await close?.();
    await database?.drop();
    receiver.close();
  });

  it("sends an endpoint's deliveries in order", async () => {
    const e = await createWebhook(
      db,
      { url: `http://127.0.0.1:${port}/o`, events: ["webhook.test"], enabled: true },
      {
        kind: "token",
        tokenId: "t",
        userId: null,
        role: "admin",
      },
    );
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await testWebhook(db, e.id)).id);
    const end = Date.now() + 15_000;
    while (received.length < 5 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    const jobs = await db.$queryRawUnsafe(
      `SELECT id, state, start_after, data FROM pgboss.job WHERE name = 'webhook-delivery'`,
    );
    if (received.length < 5) console.log(JSON.stringify(jobs, null, 1));
    expect(received).toEqual(ids);
  }, 30_000);
});
