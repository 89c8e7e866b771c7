import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PrismaClient } from "../../db/generated/client";
import type { Principal } from "../../auth/service";
import { createEvalTestDb, questions, seedAgent, seedSet } from "../testing";
import {
  adoptSuggestions,
  cancelRun,
  closeAnswering,
  createBadCasesForRun,
  createRun,
  getItem,
  listBadCases,
  listItems,
  listSamples,
  rerunRun,
  runGate,
  runReport,
  setVerdict,
  startRun,
  submitPastedAnswers,
  listQueue,
  listRuns,
} from "../index";
import { createUser } from "../../auth/service";
import { EvalQueue } from "./queue";
import { queueDepths } from "./queue-jobs";

const alice: Principal = { kind: "user", userId: "user_alice", email: "alice@example.com", role: "annotator" };
const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const BAD = "Hello there.";

describe("evaluation services: runs: creation, pasted answers, closing, lifecycle, what the pages read (embedded database)", () => {
  let db: PrismaClient;
  let close: () => Promise<void>;
  let agentId: string;
  beforeAll(async () => {
    ({ db, close } = await createEvalTestDb());
    agentId = (await seedAgent(db)).id;
  }, 60_000);
  afterAll(async () => close());

  it("a run is created only from a frozen version", async () => {
    const draft = await seedSet(db, { agentId, samples: questions(2), freeze: false });
    await expect(
      createRun(db, { setVersionId: draft.setVersionId, mode: "pasted", tier: "pipeline" }, null),
    ).rejects.toMatchObject({ status: 400, code: "SET_VERSION_NOT_FROZEN" });
    const frozen = await seedSet(db, { agentId, samples: questions(2) });
    const run = await createRun(
      db,
      { setVersionId: frozen.setVersionId, mode: "pasted", tier: "invoke", environment: "staging" },
      alice,
    );
    expect(run).toMatchObject({
      status: "created",
      mode: "pasted",
      tier: "invoke",
      environment: "staging",
      setVersion: 1,
      workflowVersion: 1,
      progress: { total: 2, pending: 2 },
    });
    expect(run.shortId).toMatch(/^R-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect(run.createdById).toBe("user_alice");
    await expect(createRun(db, { setVersionId: "missing", mode: "pasted" }, null)).rejects.toMatchObject({
      status: 404,
    });
  });

  it("pasted answers: matched by sample id or key, unmatched reported, suggestions computed, then review", async () => {
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(3) });
    const run = await createRun(db, { setVersionId, mode: "pasted" }, null);
    const { items } = await listItems(db, run.shortId, {});
    const res = await submitPastedAnswers(db, run.id, {
      answers: [
        { sampleId: items[0]!.sampleId, answer: GOOD, latencyMs: 120 },
        { key: "q002", answer: BAD },
        { key: "nope", answer: "x" },
      ],
    });
    expect(res.matched).toBe(2);
    expect(res.unmatched).toEqual([{ row: 3, key: "nope", reason: "no sample of this run has this id or key" }]);
    expect(res.run.status).toBe("answering");
    const after = await listItems(db, run.id, {});
    expect(after.items[0]).toMatchObject({
      status: "answered",
      answer: GOOD,
      latencyMs: 120,
      suggestion: { verdict: "pass" },
    });
    expect(after.items[1]!.suggestion!.verdict).toBe("fail");
    // while answering, the machine pass rate counts the answered questions only (1 of 2, not 1 of 3)
    const answering = await runReport(db, run.id);
    expect(answering.machine).toMatchObject({ pass: 1, fail: 1, passRate: 0.5, counted: 2 });
    expect(answering.breakdown.byTier[0]).toMatchObject({ total: 3, machinePass: 1, machinePassRate: 0.5 });
    const done = await submitPastedAnswers(db, run.id, {
      format: "csv",
      content: "key,answer,error\nq003,,upstream timeout\n",
    });
    expect(done.run.status).toBe("awaiting_review");
    // answering over: every question counts
    const answered = await runReport(db, run.id);
    expect(answered.machine).toMatchObject({ pass: 1, passRate: 0.3333, counted: 3 });
    expect(answered.breakdown.byTier[0]).toMatchObject({ total: 3, machinePassRate: 0.3333 });
    expect((await getItem(db, run.id, after.items[2]!.id)).suggestion!.flags.map((f) => f.flag)).toContain(
      "execution_error",
    );
    await expect(submitPastedAnswers(db, run.id, { answers: [{ key: "q001", answer: "late" }] })).rejects.toMatchObject(
      { status: 409, code: "RUN_STATE_CONFLICT" },
    );
    await expect(submitPastedAnswers(db, run.id, { answers: [{ answer: "no id" }] })).rejects.toMatchObject({
      status: 409,
    });
  });

  it("pasted answers refuse an in-platform run and invalid rows", async () => {
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(1) });
    const inPlatform = await createRun(db, { setVersionId, mode: "in_platform" }, null);
    await expect(
      submitPastedAnswers(db, inPlatform.id, { answers: [{ key: "q001", answer: "x" }] }),
    ).rejects.toMatchObject({ status: 409, code: "RUN_MODE_MISMATCH" });
    const pasted = await createRun(db, { setVersionId, mode: "pasted" }, null);
    const err = await submitPastedAnswers(db, pasted.id, { answers: [{ answer: "no id" }] }).catch((e) => e);
    expect(err).toMatchObject({
      code: "IMPORT_INVALID",
      details: [{ row: 1, field: "sample_id", message: "each row needs sample_id or key" }],
    });
  });

  it("what the pages read: the annotation queue with progress and filters, runs by tier/mode/re-run, samples paged and searched, Bad Cases with scenario and author, who did it", async () => {
    const user = await createUser(db, {
      email: "reviewer@example.com",
      name: "Rita Reviewer",
      password: "a-long-password",
      role: "annotator",
    });
    const rita: Principal = { kind: "user", userId: user.id, email: user.email, role: "annotator" };
    const { set, setVersionId } = await seedSet(db, {
      agentId,
      samples: questions(6),
      threshold: 3,
      name: "Pages",
      // no audit of adopted passes here (its own tests: verdicts/audit-sample.test.ts, eval-audit): the spot-check rule alone
      auditRate: 0,
    });
    const run = await createRun(db, { setVersionId, mode: "pasted", tier: "invoke", environment: "pages" }, rita);
    expect(run.createdByLabel).toBe("Rita Reviewer");
    await submitPastedAnswers(db, run.id, {
      answers: ["q001", "q002", "q003", "q004", "q005", "q006"].map((key, i) => ({
        key,
        answer: i < 3 ? GOOD : BAD,
      })),
    });
    expect((await listQueue(db, run.id, {})).counts).toMatchObject({
      judged: 0,
      adoptable: 6,
      unknownOpen: 0,
      spotCheckLeft: 3,
    });
    await adoptSuggestions(db, run.id, rita);
    let queue = await listQueue(db, run.id, {});
    expect(queue.counts).toMatchObject({
      total: 6,
      judged: 6,
      human: 0,
      adopted: 6,
      spotCheckLeft: 3,
      matching: 6,
      adoptable: 0,
      unknownOpen: 0,
    });
    expect(queue.items[0]).toMatchObject({
      key: "q001",
      classification: "price",
      status: "answered",
      suggestion: { verdict: "pass", flags: [] },
      verdict: { verdict: "pass", source: "adopted" },
      spotCheck: false,
    });
    expect(queue.items[0]).not.toHaveProperty("answer");
    // a person confirms one spot-check item: human +1, spot-check left -1
    await setVerdict(
      db,
      run.id,
      queue.items[3]!.id,
      { verdict: "fail", basis: "no dish named", attribution: "generation", classification: "breakfast-special" },
      rita,
    );
    queue = await listQueue(db, run.id, { spotCheck: true });
    expect(queue.counts).toMatchObject({ human: 1, adopted: 5, spotCheckLeft: 2, matching: 3 });
    expect((await listQueue(db, run.id, { classification: "breakfast-special" })).items.map((i) => i.key)).toEqual([
      "q004",
    ]);
    expect((await listQueue(db, run.id, { classification: "price" })).items.map((i) => i.key)).toEqual([
      "q001",
      "q003",
      "q005",
    ]);
    expect((await listItems(db, run.id, { q: "Q006" })).items.map((i) => i.key)).toEqual(["q006"]);
    const page1 = await listQueue(db, run.id, { limit: 4 });
    const page2 = await listQueue(db, run.id, { limit: 4, cursor: page1.nextCursor! });
    expect([...page1.items, ...page2.items].map((i) => i.key)).toEqual([
      "q001",
      "q002",
      "q003",
      "q004",
      "q005",
      "q006",
    ]);
    expect(page2.nextCursor).toBeNull();
    // the review counts come once, with the first page; the run's progress says who judged (human = judged - adopted)
    expect(page1.counts).toMatchObject({ total: 6, human: 1, adopted: 5, matching: 6 });
    expect(page2.counts).toBeNull();
    expect(page2.run.progress).toMatchObject({ judged: 6, adopted: 5, human: 1 });
    expect((await listRuns(db, { setId: set.id })).items.find((r) => r.id === run.id)?.progress).toMatchObject({
      judged: 6,
      adopted: 5,
      human: 1,
    });
    // who: the single item names the person behind the verdict and every history row
    const item = await getItem(db, run.id, queue.items[0]!.id);
    expect(item.verdict).toMatchObject({ source: "human", byLabel: "Rita Reviewer" });
    expect(item.history.map((h) => h.byLabel)).toEqual(["Rita Reviewer", "Rita Reviewer"]);
    // runs by tier, mode and re-run
    const rerun = await rerunRun(db, run.id, {}, null);
    expect((await listRuns(db, { setId: set.id, tier: "invoke" })).items.map((r) => r.id).sort()).toEqual(
      [run.id, rerun.id].sort(),
    );
    expect((await listRuns(db, { setId: set.id, tier: "pipeline_live" })).items).toEqual([]);
    expect((await listRuns(db, { setId: set.id, mode: "in_platform" })).items).toEqual([]);
    expect((await listRuns(db, { rerunOf: run.shortId })).items.map((r) => r.id)).toEqual([rerun.id]);
    // samples: search and pages
    const found = await listSamples(db, set.id, 1, { q: "number 5" });
    expect(found).toMatchObject({ matching: 1, nextCursor: null });
    expect(found.items.map((s) => s.key)).toEqual(["q005"]);
    const s1 = await listSamples(db, set.id, 1, { limit: 5 });
    expect(s1.items).toHaveLength(5);
    expect((await listSamples(db, set.id, 1, { limit: 5, cursor: s1.nextCursor! })).items.map((s) => s.key)).toEqual([
      "q006",
    ]);
    // Bad Cases carry the scenario, the set and the author; filters combine (run AND agent AND attribution)
    const bc = (await createBadCasesForRun(db, run.id, rita)).items.find((b) => b.sampleKey === "q004")!;
    expect(bc).toMatchObject({
      classification: "breakfast-special",
      setId: set.id,
      setName: "Pages",
      createdByLabel: "Rita Reviewer",
      attribution: "generation",
    });
    expect(
      (await listBadCases(db, { runId: run.shortId, agentId, attribution: "generation" })).items.map(
        (b) => b.sampleKey,
      ),
    ).toContain("q004");
    expect((await listBadCases(db, { runId: run.shortId, agentId: "another-agent" })).items).toEqual([]);
  });

  it("close answering: unanswered questions become failed (NOT_ANSWERED), the run awaits review, the gate still wants every verdict", async () => {
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(3), threshold: 1 });
    const run = await createRun(db, { setVersionId, mode: "pasted" }, null);
    await submitPastedAnswers(db, run.id, { answers: [{ key: "q002", answer: GOOD }] });
    const closed = await closeAnswering(db, run.shortId);
    expect(closed.unanswered.map((u) => u.key)).toEqual(["q001", "q003"]);
    expect(closed.run.status).toBe("awaiting_review");
    const items = (await listItems(db, run.id, {})).items;
    expect(items.map((i) => [i.key, i.status, i.suggestion?.verdict])).toEqual([
      ["q001", "failed", "fail"],
      ["q002", "answered", "pass"],
      ["q003", "failed", "fail"],
    ]);
    expect(items[0]!.error).toMatch(/^NOT_ANSWERED/);
    await setVerdict(db, run.id, items[1]!.id, { verdict: "pass" }, alice);
    expect((await runGate(db, run.id)).result).toMatchObject({ passed: false, counts: { pass: 1, unjudged: 2 } });
    for (const i of [items[0]!, items[2]!])
      await setVerdict(
        db,
        run.id,
        i.id,
        { verdict: "fail", basis: "no answer was given", attribution: "other" },
        alice,
      );
    expect((await runGate(db, run.id)).result).toMatchObject({
      passed: true,
      counts: { pass: 1, fail: 2, unjudged: 0 },
    });
    await expect(closeAnswering(db, run.id)).rejects.toMatchObject({ status: 409, code: "RUN_STATE_CONFLICT" });
    const platform = await createRun(db, { setVersionId, mode: "in_platform" }, null);
    await expect(closeAnswering(db, platform.id)).rejects.toMatchObject({ status: 409, code: "RUN_MODE_MISMATCH" });
  });

  it("a run whose snapshotted workflow cannot run fails at start", async () => {
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(2) });
    const run = await createRun(db, { setVersionId, mode: "in_platform" }, null);
    // simulate a stored version the runtime no longer understands (versions are immutable: bypass the trigger)
    await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`ALTER TABLE "WorkflowVersion" DISABLE TRIGGER USER`);
      await tx.$executeRaw`UPDATE "WorkflowVersion" SET "workflow" = '{"nodes": 3}'::jsonb WHERE "id" = ${run.workflowVersionId}`;
      await tx.$executeRawUnsafe(`ALTER TABLE "WorkflowVersion" ENABLE TRIGGER USER`);
    });
    const failed = await startRun(db, run.id, {
      queue: { enqueue: async () => undefined, cancelItems: async () => undefined, abortRun: () => undefined },
    });
    expect(failed).toMatchObject({ status: "failed", progress: { cancelled: 2 } });
    expect(failed.error).toMatch(/cannot run/);
    await expect(startRun(db, run.id)).rejects.toMatchObject({ code: "RUN_STATE_CONFLICT" });
  });

  it("lifecycle: start is idempotent, cancel keeps answers, a cancelled run cannot start", async () => {
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(3) });
    const run = await createRun(db, { setVersionId, mode: "pasted" }, null);
    expect((await startRun(db, run.id)).status).toBe("answering");
    expect((await startRun(db, run.id)).status).toBe("answering");
    await submitPastedAnswers(db, run.id, { answers: [{ key: "q001", answer: GOOD }] });
    const cancelled = await cancelRun(db, run.id);
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.progress).toMatchObject({ answered: 1, cancelled: 2 });
    expect((await cancelRun(db, run.id)).status).toBe("cancelled");
    await expect(startRun(db, run.id)).rejects.toMatchObject({ status: 409, code: "RUN_STATE_CONFLICT" });
    expect((await listItems(db, run.id, {})).items[0]!.answer).toBe(GOOD);
  });
});

describe("queue depth (GET /api/metrics reads it)", () => {
  it("nothing before the queue's schema exists; then the jobs waiting per queue and the oldest one's age", async () => {
    const { db, target, close } = await createEvalTestDb();
    try {
      expect(await queueDepths(db)).toEqual([]);
      const queue = await EvalQueue.start({ db, target, worker: false, log: () => undefined });
      try {
        expect(await queueDepths(db)).toEqual([
          { queue: "eval-item", waiting: 0, active: 0, oldestWaitingSeconds: 0 },
          { queue: "eval-shadow", waiting: 0, active: 0, oldestWaitingSeconds: 0 },
        ]);
        await queue.enqueue([1, 2, 3].map((i) => ({ kind: "answer" as const, runId: "run-x", itemId: `item-${i}` })));
        const [item, shadow] = await queueDepths(db);
        expect(item).toMatchObject({ queue: "eval-item", waiting: 3, active: 0 });
        expect(item!.oldestWaitingSeconds).toBeGreaterThanOrEqual(0);
        expect(item!.oldestWaitingSeconds).toBeLessThan(60);
        expect(shadow).toMatchObject({ queue: "eval-shadow", waiting: 0 });
      } finally {
        await queue.stop();
      }
    } finally {
      await close();
    }
  });
});
