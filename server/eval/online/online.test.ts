import { afterAll, beforeAll, describe, expect, it as vitestIt } from "vitest";
import { DB_LEGS, legDatabase } from "../../db/test-legs";
import type { PrismaClient } from "../../db/generated/client";
import { addVersion, createAgent } from "../../agents/service";
import { addTraceToPool, confirmSample } from "./pool";
import { leadSignalsOf, leadsPerDay, listLeads } from "./leads";
import { loopBoard } from "./board";
import { addSample } from "../sets/samples";
import { createSet, freezeVersion } from "../sets/sets";
import { LEAD_SIGNALS, LEAD_STATUSES } from "./schemas";
import { createEvalTestDb, llmWorkflow, onlineTrace } from "../testing";

/**
 * Leads per day store each trace's guardrail signals once (only the traces that can have one, a SQL superset, go
 * through the rules) and count exactly what the unfiltered scan of the list finds, for every signal, status and score
 * filter; the list reads its cards' heavy columns and conversations for the leads it found, in one query each. The
 * counts are SQL, so this runs on the embedded database and on PostgreSQL (skipped with a notice when none is
 * reachable).
 */

const http = (status: string, output: unknown) => ({ nodeId: "http_1", type: "http", status, output });
const llm = { nodeId: "llm_1", type: "llm", status: "succeeded", output: { result: "an answer" } };

function withHttp() {
  const wf = llmWorkflow();
  wf.nodes.splice(1, 0, {
    id: "http_1",
    type: "http",
    config: { url: "https://example.com/menu" } as never,
    position: { x: 120, y: 0 },
  } as never);
  wf.edges = [
    { source: "start", target: "http_1" },
    { source: "http_1", target: "llm_1" },
    { source: "llm_1", target: "end" },
  ];
  return wf;
}

describe.each(DB_LEGS)("leads of the online loop on the $name", (leg) => {
  let db: PrismaClient;
  const { skip } = legDatabase(leg, {
    open: createEvalTestDb,
    use: (d) => {
      db = d.db;
    },
    prefix: "flowbench_online",
    what: "the online loop's tests",
  });
  const it = vitestIt.skipIf(skip);

  vitestIt.skipIf(!leg.pg || skip)("the application's PostgreSQL sessions run with JIT compilation off", async () => {
    expect(await db.$queryRawUnsafe("SHOW jit")).toEqual([{ jit: "off" }]);
  });

  it("the online worker's lead check stores the signals it found, so the counts do not put those traces through the rules again", async () => {
    const created = await createAgent(db, { name: "worker leads", workflow: llmWorkflow() }, null, {});
    const agentId = created.agent.id;
    const trace = (i: number, payload: object) =>
      onlineTrace(db, agentId, created.version.id, `question ${i}`, {
        steps: [{ nodeId: "start", type: "start", status: "succeeded", output: { query: `question ${i}` } }, llm],
        payload,
        startedAt: new Date(Date.now() - i * 60_000),
        finishedAt: new Date(Date.now() - i * 60_000 + 1000),
      });
    const empty = await trace(1, { goods_list: [] }); // empty_items
    const good = await trace(2, { goods_list: [{ name: "tofu" }], note: "[]" }); // a candidate, not a lead
    const signals = await leadSignalsOf(db, agentId, [empty, good]);
    expect([...signals]).toEqual([[empty, ["empty_items"]]]);
    const stored = await db.trace.findMany({
      where: { id: { in: [empty, good] } },
      select: { id: true, leadFlags: true, leadFlagsAt: true },
    });
    expect(Object.fromEntries(stored.map((t) => [t.id, t.leadFlags]))).toEqual({
      [empty]: ["empty_items"],
      [good]: [],
    });
    expect(stored.every((t) => t.leadFlagsAt !== null)).toBe(true);
    const counted = await leadsPerDay(db, { agentId });
    expect(counted.total).toBe(1);
    expect(counted.scanned).toBe(0);
  });

  it("the counts per day store each trace's guardrail signals once, put only candidates through the rules, and count exactly what the list finds, under every filter", async () => {
    const created = await createAgent(db, { name: "leads", workflow: llmWorkflow() }, null, {});
    const agentId = created.agent.id;
    const plain = created.version.id;
    const withHttpNodes = (await addVersion(db, agentId, { workflow: withHttp() }, null, {})).version.id;
    type T = {
      mode?: "pipeline_live" | "pipeline" | "invoke";
      status?: "succeeded" | "failed";
      steps?: unknown[];
      payload?: unknown;
      error?: unknown;
      version?: string;
      score?: number;
      sessionId?: string;
    };
    const kinds: T[] = [
      {}, // nothing: never a lead
      { score: 5 }, // a good score
      { score: 2 }, // low_score
      { score: 1, sessionId: "s1" },
      { status: "failed", error: { code: "X", message: "down" } }, // execution_error
      { error: { code: "Y", message: "warned" } },
      { version: withHttpNodes }, // no_query: http nodes, no http step
      { version: withHttpNodes, steps: [http("failed", null)] }, // no_query
      { version: withHttpNodes, steps: [http("succeeded", { ok: false, status: 500 })] }, // no_query (ok false)
      { version: withHttpNodes, steps: [http("succeeded", { ok: true, result: { items: [{ name: "tofu" }] } })] }, // a good query
      { version: withHttpNodes, steps: [http("succeeded", { ok: true, result: { items: [] } })] }, // empty_items
      {
        version: withHttpNodes,
        steps: [
          http("succeeded", { ok: true, result: { items: [] } }),
          http("succeeded", { ok: true, result: { items: [{ name: "x" }] } }),
        ],
      }, // not empty: one list has items
      { version: withHttpNodes, mode: "invoke", steps: [] }, // invoke: no tool signals
      { version: withHttpNodes, mode: "pipeline", steps: [http("succeeded", { ok: true, result: { items: [] } })] }, // empty lists count at pipeline_live only
      { payload: { goods_list: [] } }, // empty_items from the payload
      { payload: { goods_list: [{ name: "tofu" }], note: "[]" } }, // "[]" in a string: a candidate, not a lead
      { payload: { goods_list: [{ name: "tofu" }] } },
      { steps: [http("succeeded", { ok: true, result: [] })] }, // an http step although the version has no http node
    ];
    const ids: string[] = [];
    const now = Date.now();
    for (const [i, k] of [...kinds, ...kinds].entries()) {
      const t = await db.trace.create({
        data: {
          agentId,
          workflowVersionId: k.version ?? plain,
          source: i % 3 === 0 ? "api" : "chat",
          mode: k.mode ?? "pipeline_live",
          status: k.status ?? "succeeded",
          sessionId: k.sessionId ?? null,
          input: { query: `question ${i}` },
          answer: `answer ${i}`,
          steps: [
            { nodeId: "start", type: "start", status: "succeeded", output: { query: `question ${i}` } },
            llm,
            ...((k.steps ?? []) as object[]),
          ],
          ...(k.payload !== undefined ? { payload: k.payload as object } : {}),
          ...(k.error !== undefined ? { error: k.error as object } : {}),
          startedAt: new Date(now - i * 3_600_000),
          finishedAt: new Date(now - i * 3_600_000 + 1000),
        },
      });
      if (k.score) await db.traceFeedback.create({ data: { traceId: t.id, score: k.score } });
      ids.push(t.id);
    }
    // statuses: one in a pool, one dismissed
    const pool = await db.evalSet.create({
      data: { agentId, name: "pool", kind: "regression_pool", gateThreshold: 0, versions: { create: { version: 1 } } },
      include: { versions: true },
    });
    await db.evalSample.create({
      data: { setVersionId: pool.versions[0]!.id, key: "p1", position: 1, question: "q", sourceTraceId: ids[2]! },
    });
    await db.leadDismissal.create({ data: { traceId: ids[4]!, reason: "known outage" } });

    const all = await leadsPerDay(db, { agentId });
    expect(all.total).toBe(2 * 10); // per copy: 2 low scores, 2 errors, 3 no_query, 3 empty_items (steps, payload, a step of a version without http nodes)
    // only the traces that can have a guardrail signal went through the rules: not the good ones, nor the low scores
    expect(all.scanned).toBeLessThan(ids.length);
    expect(all.scanned).toBeGreaterThanOrEqual(2 * 8);
    expect(all.complete).toBe(true);
    // their signals are stored: every trace has them, equal to the list's, and a second count reads them
    const stored = await db.trace.findMany({
      where: { id: { in: ids } },
      select: { id: true, leadFlags: true, leadFlagsAt: true },
    });
    expect(stored.every((t) => t.leadFlagsAt !== null)).toBe(true);
    const listedAll = await listLeads(db, { agentId, maxScore: 5, limit: 100 });
    for (const t of stored)
      expect(t.leadFlags, t.id).toEqual(
        listedAll.items.find((l) => l.traceId === t.id)?.flags.map((f) => f.flag) ?? [],
      );
    const again = await leadsPerDay(db, { agentId });
    expect({ ...again, scanned: 0 }).toEqual({ ...all, scanned: 0 });
    expect(again.scanned).toBe(0);
    for (const signal of [undefined, ...LEAD_SIGNALS]) {
      for (const status of [undefined, ...LEAD_STATUSES]) {
        for (const maxScore of [1, 2, 5]) {
          const filters = { agentId, maxScore, ...(signal ? { signal } : {}), ...(status ? { status } : {}) };
          const listed = await listLeads(db, { ...filters, limit: 100 });
          const counted = await leadsPerDay(db, filters);
          const label = JSON.stringify(filters);
          expect(counted.total, label).toBe(listed.items.length);
          for (const st of LEAD_STATUSES)
            expect(counted.byStatus[st], `${label} ${st}`).toBe(listed.items.filter((l) => l.status === st).length);
        }
      }
    }
    // the list's cards carry what the scan did not read
    const page = await listLeads(db, { agentId, signal: "empty_items", limit: 100 });
    expect(page.items.map((l) => l.message).sort()).toEqual([
      "question 10",
      "question 14",
      "question 17",
      "question 28",
      "question 32",
      "question 35",
    ]);
    expect(page.items.find((l) => l.message === "question 14")).toMatchObject({
      answer: "answer 14",
      payload: { goods_list: [] },
      signals: ["empty_items"],
    });
  });

  it("a lead's conversation is its chat session's earlier turns (same caller), for every lead of a page in one query", async () => {
    const created = await createAgent(db, { name: "conversations", workflow: llmWorkflow() }, null, {});
    const agentId = created.agent.id;
    const at = (m: number) => new Date(Date.parse("2026-01-10T10:00:00Z") + m * 60_000);
    const turn = async (
      session: string | null,
      minute: number,
      text: string,
      opts: { score?: number; createdById?: string; source?: string } = {},
    ) => {
      const t = await db.trace.create({
        data: {
          agentId,
          workflowVersionId: created.version.id,
          source: opts.source ?? "chat",
          mode: "pipeline_live",
          status: "succeeded",
          sessionId: session,
          createdById: opts.createdById ?? null,
          input: { query: text },
          answer: `re: ${text}`,
          startedAt: at(minute),
          finishedAt: at(minute),
        },
      });
      if (opts.score) await db.traceFeedback.create({ data: { traceId: t.id, score: opts.score } });
      return t.id;
    };
    await turn("a", 0, "first in a");
    await turn("a", 1, "second in a");
    await turn("a", 2, "someone else in a", { createdById: "other" });
    await turn("a", 3, "third in a", { score: 1 });
    await turn("a", 4, "after the lead in a");
    await turn("b", 5, "first in b");
    await turn("b", 6, "second in b", { score: 2 });
    await turn(null, 7, "no session", { score: 1 });
    const page = await listLeads(db, { agentId, from: "2026-01-10", to: "2026-01-10" });
    const byMessage = new Map(page.items.map((l) => [l.message, l.conversation.map((c) => c.content)]));
    expect(byMessage.get("third in a")).toEqual(["first in a", "re: first in a", "second in a", "re: second in a"]);
    expect(byMessage.get("second in b")).toEqual(["first in b", "re: first in b"]);
    expect(byMessage.get("no session")).toEqual([]);
    // a cursor is a nextCursor of this list: one the database cannot hold is a 400, never a 500 (issue 28, item 8)
    for (const cursor of [
      "0000-01-01T00:00:00.000Z_x",
      "-271821-04-20T00:00:00.000Z_x",
      "+275760-09-13T00:00:00.000Z_x",
      "1969-12-31T23:59:59.999Z_x",
      "2026-01-10T00:00:00.000Z_",
      "not-a-cursor",
    ])
      await expect(listLeads(db, { agentId, cursor }), cursor).rejects.toMatchObject({
        status: 400,
        code: "REQUEST_INVALID",
      });
    const next = await listLeads(db, { agentId, from: "2026-01-10", to: "2026-01-10", limit: 1 });
    expect(next.nextCursor).toMatch(/^2026-01-10T.*Z_/);
    expect(
      (await listLeads(db, { agentId, from: "2026-01-10", to: "2026-01-10", cursor: next.nextCursor! })).items.length,
    ).toBeGreaterThan(0);
  });

  it("the board counts each pool draft's online samples and the unconfirmed ones exactly, in the database", async () => {
    const created = await createAgent(db, { name: "board drafts", workflow: llmWorkflow() }, null, {});
    const agentId = created.agent.id;
    const trace = (i: number) => onlineTrace(db, agentId, created.version.id, `q ${i}`);
    const pool = await createSet(db, { agentId, name: "Pool A", kind: "regression_pool", gateThreshold: 0 }, null);
    const added = [];
    for (let i = 0; i < 3; i++)
      added.push(await addTraceToPool(db, pool.id, { traceId: await trace(i), expectedPoints: ["a point"] }, null));
    await confirmSample(db, added[0]!.sample.id, null);
    await addSample(db, pool.id, 1, { question: "typed by hand", expectedPoints: ["x"] }); // not online-sourced: not counted
    const other = await createSet(db, { agentId, name: "Pool B", kind: "regression_pool", gateThreshold: 0 }, null); // an empty draft
    expect((await loopBoard(db, { agentId })).drafts).toEqual([
      {
        setId: pool.id,
        setName: "Pool A",
        version: 1,
        versionId: expect.any(String),
        onlineSamples: 3,
        unconfirmed: 2,
      },
      {
        setId: other.id,
        setName: "Pool B",
        version: 1,
        versionId: expect.any(String),
        onlineSamples: 0,
        unconfirmed: 0,
      },
    ]);
    // frozen: no longer a draft; the next add opens v2, which copies the samples: the two v1 took in unconfirmed are
    // in the pool since that freeze, so only the new one is a candidate
    await freezeVersion(db, pool.id, 1, null);
    await addTraceToPool(db, pool.id, { traceId: await trace(9) }, null);
    expect((await loopBoard(db, { agentId })).drafts.find((d) => d.setId === pool.id)).toMatchObject({
      version: 2,
      onlineSamples: 4,
      unconfirmed: 1,
    });
  });
});
