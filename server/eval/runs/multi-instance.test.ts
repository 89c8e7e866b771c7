import { useModelServer } from "../../llm/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../db/generated/client";
import type { DatabaseTarget } from "../../db/url";
import { createPostgresTestDatabase, postgresReachable } from "../../db/test-postgres";
import { createEvalTestDb, questions, seedAgent, seedSet, startModelServer, type ModelServer } from "../testing";
import { EvalQueue } from "./queue";
import { EVAL_QUEUE } from "./queue-jobs";
import { registerEvalQueue } from "./worker";
import { adjudicate, createRun, getItem, getRun, listItems, setVerdict, startRun, submitPastedAnswers } from "../index";

/**
 * Several app instances on one PostgreSQL server share a run's items through the queue: two workers answer one
 * run together, never more items at once than the run's concurrency in total, and every item is answered once; a
 * worker that dies hands its items to the other within about a lease, and so does one that dies holding jobs it fetched
 * but never claimed; a live worker's long jobs are seen (heartbeat) and never taken from it.
 * Skipped with a printed notice when no PostgreSQL server is reachable.
 */
const hasPg = await postgresReachable();
if (!hasPg) console.warn("[eval] NOTICE: no PostgreSQL server reachable: the multi-instance queue test is SKIPPED");

describe.skipIf(!hasPg)("two app instances on one PostgreSQL server", () => {
  let db: PrismaClient;
  let target: DatabaseTarget;
  let close: () => Promise<void>;
  let database: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
  let model: ModelServer;
  const queues: EvalQueue[] = [];

  let restoreEnv: () => void = () => undefined;
  beforeAll(async () => {
    database = await createPostgresTestDatabase({ prefix: "flowbench_mi" });
    model = await startModelServer({ delayMs: 150 });
    restoreEnv = useModelServer(model.url);
    ({ db, target, close } = await createEvalTestDb(database.url));
  }, 60_000);

  afterAll(async () => {
    for (const q of queues) await q.stop().catch(() => undefined);
    registerEvalQueue(undefined);
    await close?.();
    await model?.close();
    await database?.drop();
    restoreEnv();
  });

  it("share a run's items: both work on it, each item is answered exactly once", async () => {
    const agentId = (await seedAgent(db)).id;
    const n = 20;
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(n, { prefix: "mi" }), threshold: 10 });
    const run = await createRun(db, { setVersionId, mode: "in_platform", tier: "pipeline", concurrency: 2 }, null);
    // two "instances": separate queue workers on the same database (recoverActive off: others share it)
    for (let i = 0; i < 2; i++)
      queues.push(
        await EvalQueue.start({ db, target, worker: true, pollMs: 100, recoverActive: false, log: () => undefined }),
      );
    registerEvalQueue(queues[0]);
    model.maxInflight = 0;
    await startRun(db, run.id);
    const until = Date.now() + 30_000;
    while ((await getRun(db, run.id)).status !== "awaiting_review") {
      if (Date.now() > until) {
        const left = (await listItems(db, run.id, {})).items.filter((i) => i.status !== "answered");
        throw new Error(
          `the run did not finish: ${JSON.stringify((await getRun(db, run.id)).progress)}; ${JSON.stringify(left.map((i) => [i.status, i.attempts, i.error]))}`,
        );
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
    // the run's concurrency is its total across both instances (each alone would allow 2): the model saw at most 2
    expect(model.maxInflight).toBe(2);
  }, 120_000);

  it("a worker that dies mid-item hands it to the other instance within about a lease, not after the item timeout", async () => {
    for (const q of queues.splice(0)) await q.stop();
    const agentId = (await seedAgent(db)).id;
    const n = 6;
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(n, { prefix: "dead" }), threshold: 10 });
    const run = await createRun(db, { setVersionId, mode: "in_platform", tier: "pipeline", concurrency: 3 }, null);
    model.delayMs = 1500;
    // instance A only: it claims three items and dies while the model answers them
    const lease = 3;
    const a = await EvalQueue.start({
      db,
      target,
      worker: true,
      pollMs: 100,
      recoverActive: false,
      leaseSeconds: lease,
      itemTimeoutSeconds: 600,
      log: () => undefined,
    });
    registerEvalQueue(a);
    await startRun(db, run.id);
    const until = Date.now() + 10_000;
    while ((await listItems(db, run.id, {})).items.filter((i) => i.status === "answering").length < 3) {
      if (Date.now() > until) throw new Error("instance A never took three items");
      await new Promise((r) => setTimeout(r, 50));
    }
    await a.stop({ crash: true });
    model.delayMs = 150;
    const died = Date.now();
    // instance B starts (recoverActive off: on a server it cannot know A is dead) and must take A's items
    const logs: string[] = [];
    const b = await EvalQueue.start({
      db,
      target,
      worker: true,
      pollMs: 100,
      recoverActive: false,
      leaseSeconds: lease,
      itemTimeoutSeconds: 600,
      log: (m) => logs.push(m),
    });
    queues.push(b);
    registerEvalQueue(b);
    while ((await getRun(db, run.id)).status !== "awaiting_review") {
      if (Date.now() - died > 30_000)
        throw new Error(`A's items were not taken over: ${JSON.stringify((await getRun(db, run.id)).progress)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const tookOver = Date.now() - died;
    // far sooner than the 600 s item timeout: a lease (3 s) plus a sweep (a third of a lease) plus the retry, ~5.5 s
    // idle; bounded at 5 leases for a busy machine
    expect(tookOver).toBeLessThan(lease * 1000 * 5);
    expect(logs.some((l) => l.includes("stopped renewing its lease"))).toBe(true);
    const items = (await listItems(db, run.id, {})).items;
    expect(items.every((i) => i.status === "answered" && i.traceId)).toBe(true);
    expect(items.filter((i) => i.attempts > 1).length).toBeGreaterThanOrEqual(3);
  }, 120_000);

  it("jobs a dead instance fetched but never claimed are retried within about a lease, not after the item timeout", async () => {
    for (const q of queues.splice(0)) await q.stop();
    const agentId = (await seedAgent(db)).id;
    const n = 6;
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(n, { prefix: "fetched" }), threshold: 1 });
    const run = await createRun(db, { setVersionId, mode: "in_platform", tier: "pipeline", concurrency: 4 }, null);
    const lease = 3;
    // instance A fetches two of the run's jobs and dies before claiming their items (kill -9 between fetch and claim)
    const a = await EvalQueue.start({ db, target, worker: false, log: () => undefined });
    registerEvalQueue(a);
    await startRun(db, run.id);
    const held = await a.boss.fetch(EVAL_QUEUE, { batchSize: 2 });
    expect(held).toHaveLength(2);
    await a.stop({ crash: true });
    const died = Date.now();
    model.answered.clear();
    model.delayMs = 150;
    const logs: string[] = [];
    const b = await EvalQueue.start({
      db,
      target,
      worker: true,
      pollMs: 100,
      recoverActive: false,
      leaseSeconds: lease,
      itemTimeoutSeconds: 600,
      log: (m) => logs.push(m),
    });
    queues.push(b);
    registerEvalQueue(b);
    while ((await getRun(db, run.id)).status !== "awaiting_review") {
      if (Date.now() - died > 30_000) {
        const left = (await listItems(db, run.id, {})).items.filter((i) => i.status !== "answered");
        throw new Error(
          `A's fetched jobs were not taken over: ${JSON.stringify(left.map((i) => [i.status, i.attempts]))}`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // a lease (3 s) since A fetched them plus a sweep (a third of a lease) plus the retry; bounded at 5 leases
    expect(Date.now() - died).toBeLessThan(lease * 1000 * 5);
    expect(logs.some((l) => l.includes("not seen for a lease"))).toBe(true);
    const items = (await listItems(db, run.id, {})).items;
    expect(items.every((i) => i.status === "answered" && i.attempts === 1)).toBe(true);
    expect(model.answered.size).toBe(n);
    for (const [question, count] of model.answered) expect(count, question).toBe(1);
  }, 120_000);

  it("a live worker's jobs are seen (heartbeat): a judge job held longer than a lease is not taken from it", async () => {
    for (const q of queues.splice(0)) await q.stop();
    const agentId = (await seedAgent(db, "Slow judge")).id;
    const n = 3;
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(n, { prefix: "sj" }), threshold: 1 });
    const run = await createRun(db, { setVersionId, mode: "pasted", tier: "pipeline" }, null);
    const lease = 2;
    const logs: string[] = [];
    const start = () =>
      EvalQueue.start({
        db,
        target,
        worker: true,
        pollMs: 100,
        recoverActive: false,
        leaseSeconds: lease,
        log: (m) => logs.push(m),
      });
    queues.push(await start(), await start());
    registerEvalQueue(queues[0]);
    model.delayMs = lease * 1000 * 3; // each judge call outlives three leases
    const judged = model.judgeRequests;
    // the LLM judge is configured: pasted answers are judged through the queue (judge jobs)
    await submitPastedAnswers(db, run.id, {
      answers: questions(n, { prefix: "sj" }).map((q) => ({ key: q.key, answer: "the scallion pancake, 12 yuan" })),
    });
    const until = Date.now() + 30_000;
    while ((await listItems(db, run.id, {})).items.some((i) => !i.suggestion?.judge.startsWith("llm:"))) {
      if (Date.now() > until) throw new Error("the judge jobs did not finish");
      await new Promise((r) => setTimeout(r, 100));
    }
    model.delayMs = 150;
    // every judge call was made once: neither worker's sweep took the other's job for a dead instance's
    expect(model.judgeRequests - judged).toBe(n);
    expect(logs.some((l) => l.includes("not seen for a lease"))).toBe(false);
  }, 120_000);

  it("verdict writes through two instances on one item are atomic: 40 concurrent writes leave a complete history chain", async () => {
    const agentId = (await seedAgent(db, "Verdict race")).id;
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(1, { prefix: "vr" }), threshold: 1 });
    const run = await createRun(db, { setVersionId, mode: "pasted", tier: "pipeline" }, null);
    const [item] = (await listItems(db, run.id, {})).items;
    await db.evalRunItem.update({
      where: { id: item!.id },
      data: { status: "answered", answer: "pasted answer", answeredAt: new Date() },
    });
    // a second instance: its own client and connection pool on the same database
    const second = await createEvalTestDb(database.url);
    try {
      const writes = Array.from({ length: 40 }, (_, k) =>
        setVerdict(
          k % 2 ? second.db : db,
          run.id,
          item!.id,
          k % 3
            ? { verdict: "pass", basis: `writer ${k}` }
            : { verdict: "fail", basis: `writer ${k}`, attribution: "intent" },
          null,
        ),
      );
      const results = await Promise.all(writes);
      expect(results.every((r) => r.changed)).toBe(true);
      const detail = await getItem(db, run.id, item!.id);
      expect(detail.verdictVersion).toBe(40);
      expect(detail.history.map((h) => h.version)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(detail.history[0]!.before).toBeNull();
      for (let i = 1; i < detail.history.length; i++)
        expect(detail.history[i]!.before, `change ${i + 1} follows on from change ${i}`).toEqual(
          detail.history[i - 1]!.after,
        );
      expect(detail.history.at(-1)!.after).toMatchObject({
        verdict: detail.verdict!.verdict,
        basis: detail.verdict!.basis,
      });
      // optimistic concurrency: a stale expectedVersion is refused and writes nothing
      await expect(
        setVerdict(second.db, run.id, item!.id, { verdict: "pass", basis: "stale", expectedVersion: 39 }, null),
      ).rejects.toMatchObject({ status: 409, code: "VERDICT_CONFLICT" });
      expect((await getItem(db, run.id, item!.id)).verdictVersion).toBe(40);
    } finally {
      await second.close();
    }
  }, 120_000);

  it("two reviewers per item: 40 concurrent reviews through two instances keep a complete history chain; of 6 adjudications at once one wins", async () => {
    const agentId = (await seedAgent(db, "Review race")).id;
    const { set, setVersionId } = await seedSet(db, {
      agentId,
      samples: questions(1, { prefix: "rr" }),
      threshold: 1,
    });
    await db.evalSet.update({ where: { id: set.id }, data: { reviewsPerItem: 2 } });
    const run = await createRun(db, { setVersionId, mode: "pasted", tier: "pipeline" }, null);
    const [item] = (await listItems(db, run.id, {})).items;
    await db.evalRunItem.update({
      where: { id: item!.id },
      data: { status: "answered", answer: "pasted answer", answeredAt: new Date() },
    });
    const person = (userId: string) => ({
      kind: "token" as const,
      tokenId: `t-${userId}`,
      userId,
      role: "annotator" as const,
    });
    const second = await createEvalTestDb(database.url);
    try {
      // alice and bob change their minds 20 times each, at once, through two instances
      const writes = Array.from({ length: 40 }, (_, k) =>
        setVerdict(
          k % 2 ? second.db : db,
          run.id,
          item!.id,
          k % 3
            ? { verdict: "pass", basis: `writer ${k}` }
            : { verdict: "fail", basis: `writer ${k}`, attribution: "intent" },
          person(k % 2 ? "alice" : "bob"),
        ),
      );
      await Promise.all(writes);
      const detail = await getItem(db, run.id, item!.id, "alice");
      expect(detail.verdictVersion).toBe(40);
      expect(detail.history.map((h) => h.version)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(detail.history[0]!.before).toBeNull();
      for (let i = 1; i < detail.history.length; i++)
        expect(detail.history[i]!.before, `change ${i + 1} follows on from change ${i}`).toEqual(
          detail.history[i - 1]!.after,
        );
      expect(detail.reviews?.given).toBe(2);
      // make it a dispute, then six adjudications at once through both instances: one wins, five get the winner's verdict
      await setVerdict(db, run.id, item!.id, { verdict: "pass" }, person("alice"));
      await setVerdict(db, run.id, item!.id, { verdict: "fail", basis: "no", attribution: "intent" }, person("bob"));
      expect((await getItem(db, run.id, item!.id)).status).toBe("disputed");
      const settled = await Promise.allSettled(
        Array.from({ length: 6 }, (_, k) =>
          adjudicate(
            k % 2 ? second.db : db,
            run.id,
            item!.id,
            { verdict: k % 2 ? "pass" : "fail", basis: `adjudicator ${k}`, attribution: "intent" },
            person(`judge${k}`),
          ),
        ),
      );
      const won = settled.filter((r) => r.status === "fulfilled");
      const lost = settled.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(won).toHaveLength(1);
      const winner = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof adjudicate>>>).value;
      expect(lost.map((r) => r.reason.code)).toEqual(Array(5).fill("ADJUDICATION_CONFLICT"));
      for (const r of lost) expect(r.reason.details[0].verdict.verdict).toBe(winner.verdict!.verdict);
      const final = await getItem(db, run.id, item!.id);
      expect(final.verdictVersion).toBe(43);
      expect(final.history.map((h) => h.version)).toEqual(Array.from({ length: 43 }, (_, i) => i + 1));
      expect(final).toMatchObject({ status: "answered", reviews: { state: "adjudicated", given: 2 } });
    } finally {
      await second.close();
    }
  }, 120_000);
});
