import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../db/generated/client";
import { createAgent, publishVersion } from "../../agents/service";
import { onOnlineAnswer, type OnlineAnswer } from "../../runtime";
import { chat } from "../../runtime/service";
import { EvalQueue } from "../runs/queue";
import { SHADOW_QUEUE } from "../runs/queue-jobs";
import { createPostgresTestDatabase, postgresReachable } from "../../db/test-postgres";
import { conditionDetector, createEvalTestDb } from "../testing";
import { enqueueShadow, flushShadowJobs } from "./jobs";
import { listDisagreements, replayShadow, shadowReport } from "./report";
import { publishShadowCandidate } from "./publish";
import { putShadowConfig } from "./config";
import { shadowTrace } from "./intent";

/**
 * The intent shadow's service on an in-memory database: cache hits are shadowed with the live intent of the trace that
 * produced the cached answer, replay includes them, the report counts the configured candidate's results only (in the
 * database, no cap), the disagreements come by cursor pages, and publishing a draft candidate provisions a version.
 */
let db: PrismaClient;
let close: () => Promise<void>;
let target: Awaited<ReturnType<typeof createEvalTestDb>>["target"];

beforeAll(async () => {
  ({ db, close, target } = await createEvalTestDb());
}, 120_000);
afterAll(async () => close?.());

const live = conditionDetector('start.query.contains("breakfast")');
const candidate = conditionDetector('start.query.contains("breakfast") || start.query.contains("morning")');
const refs = { liveRef: "{{detect.branch}}", candidateRef: "{{detect.branch}}" };

async function publishedAgent(name: string) {
  const created = await createAgent(db, { name, workflow: live }, null, {});
  await publishVersion(db, created.agent.id, 1);
  return created.agent.id;
}

describe("intent shadow service", () => {
  it("an answer served from the chat cache is an online answer: notified, shadowed with the original trace's live intent, replayed", async () => {
    const agentId = await publishedAgent(`cache-${Date.now()}`);
    await putShadowConfig(db, agentId, { candidateWorkflow: candidate, ...refs, sampleRate: 1 }, null);
    const seen: OnlineAnswer[] = [];
    const stop = onOnlineAnswer((a) => void seen.push(a));
    try {
      const first = await chat(db, agentId, { message: "a morning snack" }, null, { cacheTtlSeconds: 600 });
      const second = await chat(db, agentId, { message: "A morning  snack" }, null, { cacheTtlSeconds: 600 });
      expect([first.cache, second.cache]).toEqual(["miss", "hit"]);
      await new Promise((r) => setTimeout(r, 50)); // listeners run on the next turn of the event loop
      expect(seen.map((a) => a.traceId)).toEqual([first.traceId, second.traceId]);

      expect(await shadowTrace(db, second.traceId, "live")).toEqual({ status: "ok" });
      const hit = await db.shadowResult.findUniqueOrThrow({ where: { traceId: second.traceId } });
      // the hit's own steps hold only the cache step; the live intent comes from the trace that answered
      expect(hit).toMatchObject({
        liveIntent: "false",
        candidateIntent: "true",
        agree: false,
        status: "ok",
        message: "A morning  snack",
      });

      const replay = await replayShadow(db, agentId, { limit: 10 });
      expect(replay).toMatchObject({ replayed: 2, ok: 2, failed: 0 });
      expect(replay.report).toMatchObject({ results: 2, compared: 2, agreed: 0, missingLive: 0 });
    } finally {
      stop();
    }
  });

  it("sampled chats reach the queue together, in one insert; the sampling follows a configuration change at once", async () => {
    const agentId = await publishedAgent(`enqueue-${Date.now()}`);
    const inserts: Array<Array<{ kind: string; itemId: string }>> = [];
    const queue = {
      enqueue: async (jobs: Array<{ kind: "shadow"; runId: string; itemId: string }>) => void inserts.push(jobs),
    };
    expect(await enqueueShadow(db, { agentId, traceId: "t0" }, queue)).toBe(false); // not configured
    await putShadowConfig(db, agentId, { candidateWorkflow: candidate, ...refs, sampleRate: 1 }, null);
    for (const t of ["t1", "t2", "t3"]) expect(await enqueueShadow(db, { agentId, traceId: t }, queue)).toBe(true);
    expect(inserts).toEqual([]); // the chats never wait for the queue
    await flushShadowJobs();
    expect(inserts).toEqual([[1, 2, 3].map((i) => ({ kind: "shadow", runId: `shadow:${agentId}`, itemId: `t${i}` }))]);
    expect(await enqueueShadow(db, { agentId, traceId: "t4" }, queue, () => 0.99)).toBe(true);
    await putShadowConfig(db, agentId, { candidateWorkflow: candidate, ...refs, sampleRate: 0.5 }, null);
    expect(await enqueueShadow(db, { agentId, traceId: "t5" }, queue, () => 0.99)).toBe(false);
    expect(await enqueueShadow(db, { agentId, traceId: "t6" }, queue, () => 0.1)).toBe(true);
    await new Promise((r) => setTimeout(r, 1_200)); // flushed by the timer
    expect(
      inserts
        .slice(1)
        .flat()
        .map((j) => j.itemId),
    ).toEqual(["t4", "t6"]);
  });

  it("a worker runs the shadow jobs from their own queue, never more than its cap at once", async () => {
    const agentId = await publishedAgent(`worker-${Date.now()}`);
    await putShadowConfig(db, agentId, { candidateWorkflow: candidate, ...refs, sampleRate: 1 }, null);
    const traces: string[] = [];
    for (let i = 0; i < 6; i++)
      traces.push((await chat(db, agentId, { message: `morning ${i}` }, null, { cacheTtlSeconds: 0 })).traceId);
    const queue = await EvalQueue.start({ db, target, worker: true, pollMs: 50, log: () => undefined });
    try {
      for (const t of traces) await enqueueShadow(db, { agentId, traceId: t }, queue);
      await flushShadowJobs();
      const { rows } = await (
        queue.boss.getDb() as unknown as {
          executeSql(q: string, v: unknown[]): Promise<{ rows: Array<{ n: number }> }>;
        }
      ).executeSql(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1`, [SHADOW_QUEUE]);
      expect(rows[0]!.n).toBe(6);
      let peak = 0;
      for (const until = Date.now() + 60_000; Date.now() < until; ) {
        peak = Math.max(peak, (queue as unknown as { shadowsInFlight(): number }).shadowsInFlight());
        if ((await db.shadowResult.count({ where: { agentId } })) === 6) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(await db.shadowResult.count({ where: { agentId, status: "ok", agree: false } })).toBe(6);
      expect(peak).toBeLessThanOrEqual(1);
    } finally {
      await queue.stop();
    }
  }, 120_000);

  it("a turn of a conversation: the candidate sees the history the live version was answered with", async () => {
    const withHistory = (expression: string) => {
      const w = conditionDetector(expression);
      w.nodes[0]!.config = {
        outputs: [
          { name: "query", type: "string", required: true, default: "" },
          { name: "history", type: "string", required: false, default: "" },
        ],
      };
      return w;
    };
    const created = await createAgent(
      db,
      {
        name: `history-${Date.now()}`,
        workflow: withHistory('start.query.contains("breakfast") || start.history.contains("breakfast")'),
      },
      null,
      {},
    );
    const agentId = created.agent.id;
    await publishVersion(db, agentId, 1);
    await putShadowConfig(
      db,
      agentId,
      {
        candidateWorkflow: withHistory('start.query.contains("breakfast") || start.history.contains("breakfast")'),
        ...refs,
      },
      null,
    );
    await chat(db, agentId, { message: "breakfast please", sessionId: "s-1" }, null, { cacheTtlSeconds: 0 });
    const followUp = await chat(db, agentId, { message: "and something warm?", sessionId: "s-1" }, null, {
      cacheTtlSeconds: 0,
    });
    await chat(db, agentId, { message: "a third turn", sessionId: "s-1" }, null, { cacheTtlSeconds: 0 }); // later turns are not its history
    await shadowTrace(db, followUp.traceId, "replay");
    expect(await db.shadowResult.findUniqueOrThrow({ where: { traceId: followUp.traceId } })).toMatchObject({
      liveIntent: "true",
      candidateIntent: "true",
      agree: true,
    });
  });

  it("the report counts the configured candidate's results only; disagreements come by cursor pages", async () => {
    const agentId = await publishedAgent(`pages-${Date.now()}`);
    await putShadowConfig(db, agentId, { candidateWorkflow: candidate, ...refs }, null);
    const messages = [...Array.from({ length: 45 }, (_, i) => `morning ${i}`), "breakfast 1", "breakfast 2", "dinner"];
    const traces: string[] = [];
    for (const m of messages)
      traces.push((await chat(db, agentId, { message: m }, null, { cacheTtlSeconds: 0 })).traceId);
    for (const t of traces) await shadowTrace(db, t, "replay");

    const report = await shadowReport(db, agentId, {});
    expect(report).toMatchObject({ results: 48, compared: 48, agreed: 3, failed: 0 });
    expect(report.matrix).toEqual(
      expect.arrayContaining([
        { live: "false", candidate: "true", count: 45 },
        { live: "true", candidate: "true", count: 2 },
        { live: "false", candidate: "false", count: 1 },
      ]),
    );
    expect(report.perDay).toEqual([expect.objectContaining({ total: 48, agreed: 3 })]);
    expect(report.disagreements).toHaveLength(20);
    expect(report.disagreementsNextCursor).not.toBeNull();

    const seen: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    do {
      const page = await listDisagreements(db, agentId, { limit: 20, ...(cursor ? { cursor } : {}) });
      expect(page.total).toBe(45);
      sizes.push(page.items.length);
      seen.push(...page.items.map((d) => d.traceId));
      expect(page.items.every((d) => d.live === "false" && d.candidate === "true" && d.candidateTraceId)).toBe(true);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(sizes).toEqual([20, 20, 5]);
    expect(new Set(seen).size).toBe(45);
    expect(seen[0]).toBe(traces[44]); // newest first

    // another candidate: the old results are not its numbers
    await putShadowConfig(db, agentId, { candidateWorkflow: live, ...refs }, null);
    expect(await shadowReport(db, agentId, {})).toMatchObject({
      results: 0,
      compared: 0,
      agreement: null,
      disagreements: [],
    });
    await shadowTrace(db, traces[0]!, "replay");
    expect(await shadowReport(db, agentId, {})).toMatchObject({ results: 1, compared: 1, agreed: 1 });
    // changing only the rate or on/off keeps the results
    await putShadowConfig(db, agentId, { candidateWorkflow: live, ...refs, sampleRate: 0.5, enabled: false }, null);
    expect((await shadowReport(db, agentId, {})).results).toBe(1);
  });

  it("a draft candidate is validated like any workflow; publishing it provisions the next version, publishes it and turns the shadow off", async () => {
    const agentId = await publishedAgent(`publish-${Date.now()}`);
    const broken = { nodes: [...candidate.nodes.filter((n) => n.id !== "end")], edges: candidate.edges };
    await expect(putShadowConfig(db, agentId, { candidateWorkflow: broken, ...refs }, null)).rejects.toMatchObject({
      status: 400,
      code: "WORKFLOW_INVALID",
    });

    const saved = await putShadowConfig(
      db,
      agentId,
      { candidateWorkflow: candidate, candidateNote: "file candidate.json", ...refs },
      null,
    );
    expect(saved.config).toMatchObject({ candidateVersion: null, candidateNote: "file candidate.json", enabled: true });
    expect(Array.isArray(saved.warnings)).toBe(true);
    const t = (await chat(db, agentId, { message: "morning tea" }, null, { cacheTtlSeconds: 0 })).traceId;
    await shadowTrace(db, t, "live");

    const published = await publishShadowCandidate(db, agentId, null);
    expect(published).toMatchObject({
      version: 2,
      provisioned: true,
      publishedVersion: 2,
      config: { candidateVersion: 2, candidateWorkflow: null, enabled: false },
    });
    const v2 = await db.workflowVersion.findUniqueOrThrow({ where: { agentId_version: { agentId, version: 2 } } });
    expect(v2.note).toBe("intent-shadow candidate (file candidate.json)");
    expect((await db.agent.findUniqueOrThrow({ where: { id: agentId } })).publishedVersion).toBe(2);
    // the same candidate, now a version: its results stay in the report
    expect((await shadowReport(db, agentId, {})).results).toBe(1);
    // online chat answers with it now: "morning" takes the breakfast branch
    expect((await chat(db, agentId, { message: "morning tea" }, null, { cacheTtlSeconds: 0 })).answer).toContain(
      "Breakfast: morning tea",
    );
    // the shadow switched on again with that version (a PUT recomputes the key): the same content, the same report
    const reenabled = await putShadowConfig(db, agentId, { candidateVersion: 2, ...refs, enabled: true }, null);
    expect(reenabled.config).toMatchObject({ candidateVersion: 2, candidateWorkflow: null, enabled: true });
    expect((await shadowReport(db, agentId, {})).results).toBe(1);

    // a version candidate is published as it is
    await putShadowConfig(db, agentId, { candidateVersion: 1, ...refs }, null);
    expect(await publishShadowCandidate(db, agentId, null)).toMatchObject({
      version: 1,
      provisioned: false,
      publishedVersion: 1,
    });
    expect((await db.agent.findUniqueOrThrow({ where: { id: agentId } })).latestVersion).toBe(2);
  });

  it("publishing is one transaction: a failure after provisioning leaves no version, a retry provisions one; a double click provisions one", async () => {
    const agentId = await publishedAgent(`publish-once-${Date.now()}`);
    await putShadowConfig(db, agentId, { candidateWorkflow: candidate, ...refs }, null);
    // the configuration's update fails (after the version was provisioned and published, in the same transaction)
    await db.$executeRawUnsafe(
      `CREATE OR REPLACE FUNCTION shadow_test_fail() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$ LANGUAGE plpgsql`,
    );
    await db.$executeRawUnsafe(
      `CREATE TRIGGER shadow_test_fail BEFORE UPDATE ON "ShadowConfig" FOR EACH ROW WHEN (NEW."agentId" = '${agentId}') EXECUTE FUNCTION shadow_test_fail()`,
    );
    try {
      await expect(publishShadowCandidate(db, agentId, null)).rejects.toThrow(/injected failure/);
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER shadow_test_fail ON "ShadowConfig"`);
    }
    expect(await db.agent.findUniqueOrThrow({ where: { id: agentId } })).toMatchObject({
      latestVersion: 1,
      publishedVersion: 1,
    });
    expect(await db.shadowConfig.findUniqueOrThrow({ where: { agentId } })).toMatchObject({
      candidateVersion: null,
      enabled: true,
    });

    // the retry, clicked three times at once: one version provisioned, every answer names it
    const answers = await Promise.all([1, 2, 3].map(() => publishShadowCandidate(db, agentId, null)));
    expect(answers.map((a) => a.version)).toEqual([2, 2, 2]);
    expect(answers.filter((a) => a.provisioned)).toHaveLength(1);
    expect(await db.agent.findUniqueOrThrow({ where: { id: agentId } })).toMatchObject({
      latestVersion: 2,
      publishedVersion: 2,
    });
  });
});

/** The double click on a PostgreSQL server (real concurrency: several connections): one version. Skipped with a notice without one. */
const hasPg = await postgresReachable();
if (!hasPg)
  console.warn("[eval] NOTICE: no PostgreSQL server reachable: the concurrent shadow publish test is SKIPPED");

describe.skipIf(!hasPg)("publishing the shadow candidate on a PostgreSQL server", () => {
  let pgDb: PrismaClient;
  let closePg: () => Promise<void>;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createPostgresTestDatabase({ prefix: "flowbench_shadow" });
    drop = database.drop;
    ({ db: pgDb, close: closePg } = await createEvalTestDb(database.url));
  }, 60_000);

  afterAll(async () => {
    await closePg?.();
    await drop?.();
  });

  it("eight concurrent publishes of a draft provision one version and all publish it", async () => {
    const created = await createAgent(pgDb, { name: "shadow-pg", workflow: live }, null, {});
    const agentId = created.agent.id;
    await publishVersion(pgDb, agentId, 1);
    await putShadowConfig(pgDb, agentId, { candidateWorkflow: candidate, ...refs }, null);
    const answers = await Promise.all(Array.from({ length: 8 }, () => publishShadowCandidate(pgDb, agentId, null)));
    expect(new Set(answers.map((a) => a.version))).toEqual(new Set([2]));
    expect(answers.filter((a) => a.provisioned)).toHaveLength(1);
    expect(await pgDb.workflowVersion.count({ where: { agentId } })).toBe(2);
    expect(await pgDb.agent.findUniqueOrThrow({ where: { id: agentId } })).toMatchObject({
      latestVersion: 2,
      publishedVersion: 2,
    });
  }, 60_000);
});
