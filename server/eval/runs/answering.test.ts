import { useModelServer } from "../../llm/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../db/generated/client";
import type { DatabaseTarget } from "../../db/url";
import { createEvalTestDb, questions, seedAgent, seedSet, startModelServer, type ModelServer } from "../testing";
import { EvalQueue } from "./queue";
import { registerEvalQueue } from "./worker";
import { cancelRun, createRun, getRun, listItems, runReport, startRun } from "../index";
import { start, wf } from "../../runtime/testing";

/**
 * In-platform answering through the real runtime, a local OpenAI-compatible server (node:http) and the pg-boss
 * queue on the embedded database, including a worker that dies mid-run and one that is stopped gracefully.
 */
async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("in-platform answering (local model server, pg-boss on PGlite)", () => {
  let db: PrismaClient;
  let target: DatabaseTarget;
  let close: () => Promise<void>;
  let model: ModelServer;
  let agentId: string;
  const queues: EvalQueue[] = [];
  const startQueue = async (opts: { concurrency?: number } = {}) => {
    const q = await EvalQueue.start({ db, target, worker: true, pollMs: 100, log: () => undefined, ...opts });
    queues.push(q);
    registerEvalQueue(q);
    return q;
  };

  let restoreEnv: () => void = () => undefined;
  beforeAll(async () => {
    model = await startModelServer({ delayMs: 250 });
    restoreEnv = useModelServer(model.url);
    ({ db, target, close } = await createEvalTestDb());
    agentId = (await seedAgent(db)).id;
  }, 60_000);
  afterEach(async () => {
    for (const q of queues.splice(0)) await q.stop().catch(() => undefined);
  });
  afterAll(async () => {
    registerEvalQueue(undefined);
    await close();
    await model.close();
    restoreEnv();
  });

  it("answers every sample at the run's tier with bounded concurrency; multi-turn scripts play turn by turn; the LLM judge suggests", async () => {
    const q = await startQueue();
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(6, { scripted: 1 }), threshold: 5 });
    const run = await createRun(db, { setVersionId, mode: "in_platform", tier: "invoke", concurrency: 2 }, null);
    const before = model.log.length;
    model.maxInflight = 0;
    expect((await startRun(db, run.id)).status).toBe("answering");
    expect((await startRun(db, run.shortId)).status).toMatch(/answering|awaiting_review/); // idempotent
    const seen: number[] = [];
    await waitFor("the run to finish answering", async () => {
      const r = await getRun(db, run.id);
      seen.push(r.progress.done);
      return r.status === "awaiting_review";
    });
    expect(seen.some((d) => d > 0 && d < 6)).toBe(true); // progress was readable while answering
    expect(model.maxInflight).toBeLessThanOrEqual(2);
    const items = (await listItems(db, run.id, {})).items;
    expect(
      items.every(
        (i) => i.status === "answered" && i.attempts === 1 && i.traceId && i.answer?.includes("scallion pancake"),
      ),
    ).toBe(true);
    expect(items.every((i) => i.suggestion?.verdict === "pass" && i.suggestion.judge === "llm:openai-compatible")).toBe(
      true,
    );
    expect(items[0]!.judgeCalls).toBe(1);
    expect(Math.abs(new Date(items[0]!.answeredAt!).getTime() - Date.now())).toBeLessThan(120_000); // timestamps stored as UTC
    expect(items[1]!.llmCalls).toBe(1);
    // the scripted question: the preset turn is context only, two user turns call the model with the history
    const scripted = items[0]!;
    expect(scripted.llmCalls).toBe(2);
    expect(scripted.turns).toHaveLength(3);
    expect(scripted.turns![0]).toMatchObject({ role: "system", preset: true });
    expect(scripted.turns![2]).toMatchObject({
      role: "user",
      content: "Second turn of question 1",
      traceId: scripted.traceId,
    });
    const second = model.log.slice(before).find((m) => m.at(-1)?.content === "Second turn of question 1")!;
    expect(second.map((m) => m.content)).toEqual(
      expect.arrayContaining([
        "The user is vegetarian.",
        "First turn of question 1",
        expect.stringContaining("First turn of question 1"),
      ]),
    );
    // traces: source eval, never the online answer cache
    const traces = await db.trace.findMany({
      where: { id: { in: items.map((i) => i.traceId!) } },
      select: { source: true, mode: true, cache: true },
    });
    expect(traces).toHaveLength(6);
    expect(traces.every((t) => t.source === "eval" && t.mode === "invoke" && t.cache === "bypass")).toBe(true);
    const report = await runReport(db, run.id);
    expect(report.tokens.answering).toMatchObject({ modelCalls: 7, promptTokens: 140, completionTokens: 70 });
    expect(report.tokens.judging.modelCalls).toBe(6);
    await q.stop();
  }, 120_000);

  it("each answer has memory of its own: it starts empty, and what a memory_save node wrote is deleted once the answer is stored", async () => {
    const q = await startQueue({ concurrency: 3 });
    const memoryAgent = await seedAgent(
      db,
      "memory agent",
      wf(
        [
          start(),
          { id: "load", type: "memory_load", config: { agent_id: "prefs", key: "u-1" } },
          {
            id: "save",
            type: "memory_save",
            config: { agent_id: "prefs", key: "u-1", data: { q: "{{start.query}}" } },
          },
          { id: "end", type: "end", config: { output: "found before: {{load.found}}" } },
        ],
        [
          ["start", "load"],
          ["load", "save"],
          ["save", "end"],
        ],
      ),
    );
    const { setVersionId } = await seedSet(db, { agentId: memoryAgent.id, samples: questions(3), threshold: 1 });
    const run = await createRun(db, { setVersionId, mode: "in_platform", tier: "invoke", concurrency: 3 }, null);
    await startRun(db, run.id);
    await waitFor(
      "the memory run to finish answering",
      async () => (await getRun(db, run.id)).status === "awaiting_review",
    );
    const items = (await listItems(db, run.id, {})).items;
    expect(items.map((i) => i.answer)).toEqual(Array(3).fill("found before: false"));
    // each item saved under its own scope, and the scope is gone with the answer stored
    const saves = await db.trace.findMany({
      where: { id: { in: items.map((i) => i.traceId!) } },
      select: { steps: true },
    });
    const scopes = saves.map(
      (t) =>
        (t.steps as Array<{ nodeId: string; input?: { scope?: string } }>).find((x) => x.nodeId === "save")?.input
          ?.scope,
    );
    expect(new Set(scopes).size).toBe(3);
    expect(scopes.every((x) => x?.startsWith("eval-item:"))).toBe(true);
    expect(await db.agentMemory.count({ where: { agentId: memoryAgent.id } })).toBe(0);
    await q.stop();
  }, 120_000);

  it("survives a crash and a graceful stop mid-run: unfinished items resume, none is answered twice", async () => {
    const n = 16;
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(n, { prefix: "r" }), threshold: 10 });
    const run = await createRun(db, { setVersionId, mode: "in_platform", tier: "pipeline", concurrency: 3 }, null);
    model.answered.clear();
    model.aborted = 0;
    const requestsBefore = model.requests.length;

    const q1 = await startQueue();
    await startRun(db, run.id);
    await waitFor("a few answers", async () => (await getRun(db, run.id)).progress.answered >= 4);
    await q1.stop({ crash: true }); // the process dies: no more writes, its jobs stay active
    const afterCrash = (await listItems(db, run.id, {})).items;
    const answeredBefore = new Map(afterCrash.filter((i) => i.status === "answered").map((i) => [i.id, i.traceId]));
    const interrupted = afterCrash.filter((i) => i.status === "answering").length;
    expect(answeredBefore.size).toBeGreaterThanOrEqual(4);
    expect(answeredBefore.size).toBeLessThan(n);
    expect(interrupted).toBeGreaterThan(0);

    const interruptedKeys = new Set(afterCrash.filter((i) => i.status === "answering").map((i) => i.question));

    const q2 = await startQueue(); // the new process fails the orphaned jobs (-> retry) and resumes
    await waitFor("more answers", async () => (await getRun(db, run.id)).progress.answered >= answeredBefore.size + 3);
    // a call certainly in flight at the stop: the next one the model gets is never answered (with every call answered
    // after 250 ms, a stop slowed by a loaded machine found the calls it meant to cut off already answered, twice in CI)
    const arrived = model.requests.length;
    model.script.push({ kind: "hang" });
    await waitFor("a model call that hangs", async () => model.requests.length > arrived && model.inflight > 0);
    // the call that hangs is the first to arrive after the script was set; an answering call cut off by the stop is
    // sent again when its item is retried, a judging call (the LLM judge runs after each answer) falls back to the
    // built-in judge instead and is not
    const hungAnswers = !(model.requests[arrived]?.body.messages ?? []).some((m) =>
      m.content.includes("strict evaluator"),
    );
    await q2.stop({ drainMs: 0 }); // graceful but impatient: in-flight items are aborted, back to pending, retried later
    const afterStop = (await listItems(db, run.id, {})).items;
    expect(afterStop.some((i) => i.status === "answering")).toBe(false);
    expect((await getRun(db, run.id)).status).toBe("answering");
    for (const i of afterStop.filter((x) => x.status === "pending" && x.attempts > 0)) interruptedKeys.add(i.question);

    await startQueue();
    await waitFor("the run to finish", async () => (await getRun(db, run.id)).status === "awaiting_review");
    const items = (await listItems(db, run.id, {})).items;
    expect(items.every((i) => i.status === "answered" && i.answer && i.traceId)).toBe(true);
    // answers stored before the crash were never redone
    for (const [id, traceId] of answeredBefore) expect(items.find((i) => i.id === id)!.traceId).toBe(traceId);
    // every question was answered by the model exactly once, except those cut off mid-request (asked again after
    // the restart; the cut-off request may or may not have been delivered before the abort)
    expect(model.answered.size).toBe(n);
    for (const [question, count] of model.answered)
      expect(count, question).toBe(interruptedKeys.has(question) ? count : 1);
    for (const [question, count] of model.answered)
      expect(count, question).toBeLessThanOrEqual(interruptedKeys.has(question) ? 3 : 1);
    expect(model.aborted).toBeGreaterThan(0);
    // one stored eval trace per item that succeeded
    const traces = await db.trace.count({ where: { id: { in: items.map((i) => i.traceId!) } } });
    expect(traces).toBe(n);
    // at-least-once: a model call cut off by the crash or the stop is sent again with the same idempotency key;
    // every item's call has a key of its own
    const asked = new Set(items.map((i) => i.question));
    const keys = new Map<string, Set<string>>();
    let resent = 0;
    for (const r of model.requests.slice(requestsBefore)) {
      const messages = r.body.messages ?? [];
      const question = messages.at(-1)?.content ?? "";
      if (!asked.has(question) || messages.some((m) => m.content.includes("strict evaluator"))) continue;
      if (keys.has(question)) resent++;
      keys.set(question, (keys.get(question) ?? new Set()).add(String(r.headers["idempotency-key"])));
    }
    expect(keys.size).toBe(n);
    if (hungAnswers) expect(resent).toBeGreaterThan(0);
    for (const [question, k] of keys) expect(k.size, question).toBe(1);
    expect(new Set([...keys.values()].flatMap((k) => [...k])).size).toBe(n);
  }, 180_000);

  it("a graceful stop lets in-flight items finish before the worker exits", async () => {
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(6, { prefix: "g" }), threshold: 1 });
    const run = await createRun(db, { setVersionId, mode: "in_platform", tier: "invoke", concurrency: 2 }, null);
    model.aborted = 0;
    const q = await startQueue();
    await startRun(db, run.id);
    await waitFor("an item in flight", async () => (await getRun(db, run.id)).progress.answering > 0);
    await q.stop();
    const p = (await getRun(db, run.id)).progress;
    expect(p.answering).toBe(0);
    expect(p.answered).toBeGreaterThan(0);
    expect(model.aborted).toBe(0);
    await startQueue();
    await waitFor("the run to finish", async () => (await getRun(db, run.id)).status === "awaiting_review");
    expect((await listItems(db, run.id, {})).items.every((i) => i.attempts === 1)).toBe(true);
  }, 120_000);

  it("cancel stops answering: in-flight executions are aborted, finished answers kept, nothing more is answered", async () => {
    await startQueue({ concurrency: 2 });
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(8, { prefix: "c" }), threshold: 1 });
    const run = await createRun(db, { setVersionId, mode: "in_platform", tier: "invoke", concurrency: 2 }, null);
    model.aborted = 0;
    await startRun(db, run.id);
    await waitFor("two answers", async () => (await getRun(db, run.id)).progress.answered >= 2);
    model.delayMs = 15_000; // the next requests hang long enough to be cut off
    // a request that arrived after the change: one in flight from before may be a fast one that ends by itself (then
    // nothing was left to abort, and a loaded CI run timed out waiting for an abort)
    const arrived = model.requests.length;
    await waitFor("a slow request in flight", async () => model.requests.length > arrived && model.inflight > 0);
    const cancelledAt = Date.now();
    const cancelled = await cancelRun(db, run.id);
    expect(cancelled.status).toBe("cancelled");
    await waitFor("in-flight items to settle", async () => (await getRun(db, run.id)).progress.answering === 0, 20_000);
    expect(Date.now() - cancelledAt).toBeLessThan(10_000); // aborted, not the 15 s answers waited for
    await waitFor("the model server to see the aborts", async () => model.aborted > 0, 5000);
    model.delayMs = 250;
    const settled = await getRun(db, run.id);
    const requests = model.log.length;
    await new Promise((r) => setTimeout(r, 800));
    const later = await getRun(db, run.id);
    expect(later.progress).toEqual(settled.progress);
    expect(model.log.length).toBe(requests); // nothing more is answered
    expect(later.progress.answered).toBeGreaterThanOrEqual(2);
    expect(later.progress.cancelled).toBeGreaterThan(0);
    expect(later.progress.answered + later.progress.cancelled).toBe(8);
    await expect(startRun(db, run.id)).rejects.toMatchObject({ code: "RUN_STATE_CONFLICT" });
  }, 120_000);
});
