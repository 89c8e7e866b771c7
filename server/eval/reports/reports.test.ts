import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PrismaClient } from "../../db/generated/client";
import type { Principal } from "../../auth/service";
import { addVersion } from "../../agents/service";
import { createEvalTestDb, llmWorkflow, questions, seedAgent, seedSet } from "../testing";
import {
  compareTwo,
  createRun,
  listItems,
  rerunRun,
  runGate,
  runReport,
  setVerdict,
  submitPastedAnswers,
  updateSet,
  usage,
} from "../index";

const alice: Principal = { kind: "user", userId: "user_alice", email: "alice@example.com", role: "annotator" };
const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const BAD = "Hello there.";

describe("evaluation services: the gate, reports, comparison, re-runs and usage (embedded database)", () => {
  let db: PrismaClient;
  let close: () => Promise<void>;
  let agentId: string;
  beforeAll(async () => {
    ({ db, close } = await createEvalTestDb());
    agentId = (await seedAgent(db)).id;
  }, 60_000);
  afterAll(async () => close());

  it("gate edge cases on a 30-question set: 25/30 fails, 26/30 passes, 26/30 with one unjudged fails; track B never passes", async () => {
    const setup = async (kind: "golden" | "regression_pool" = "golden") => {
      const { setVersionId } = await seedSet(db, {
        agentId,
        samples: questions(30, { scripted: 2 }),
        threshold: 26,
        kind,
      });
      const run = await createRun(db, { setVersionId, mode: "pasted" }, null);
      await submitPastedAnswers(db, run.id, {
        answers: Array.from({ length: 30 }, (_, i) => ({ key: `q${String(i + 1).padStart(3, "0")}`, answer: GOOD })),
      });
      return { run, items: (await listItems(db, run.id, {})).items };
    };
    const judge = async (runId: string, items: Array<{ id: string }>, passes: number, judged = items.length) => {
      for (const [i, it] of items.slice(0, judged).entries()) {
        await setVerdict(
          db,
          runId,
          it.id,
          i < passes ? { verdict: "pass" } : { verdict: "fail", basis: "missing point", attribution: "generation" },
          alice,
        );
      }
    };
    const r25 = await setup();
    await judge(r25.run.id, r25.items, 25);
    expect((await runGate(db, r25.run.id)).result).toMatchObject({
      passed: false,
      counts: { pass: 25, fail: 5, questions: 30 },
    });
    const r26 = await setup();
    await judge(r26.run.id, r26.items, 26);
    expect((await runGate(db, r26.run.id)).result).toMatchObject({ passed: true, counts: { pass: 26, fail: 4 } });
    const r26open = await setup();
    await judge(r26open.run.id, r26open.items, 26, 29);
    const g = (await runGate(db, r26open.run.id)).result;
    expect(g).toMatchObject({ passed: false, counts: { pass: 26, unjudged: 1 } });
    expect(g.reasons.map((r) => r.code)).toEqual(["GATE_UNJUDGED"]);
    // machine suggestions alone never count: every suggestion is pass, nothing judged
    const machineOnly = await setup();
    expect((await runReport(db, machineOnly.run.id)).machine.passRate).toBe(1);
    expect((await runGate(db, machineOnly.run.id)).result).toMatchObject({
      passed: false,
      counts: { pass: 0, unjudged: 30 },
    });
    const pool = await setup("regression_pool");
    await judge(pool.run.id, pool.items, 30);
    expect((await runGate(db, pool.run.id)).result.reasons.map((r) => r.code)).toEqual(["GATE_TRACK_B"]);
  }, 120_000);

  it("the gate threshold is fixed by the run: raising the set's threshold later changes only later runs", async () => {
    const { set, setVersionId } = await seedSet(db, { agentId, samples: questions(3), threshold: 2 });
    const setId = set.id;
    const run = await createRun(db, { setVersionId, mode: "pasted" }, null);
    await submitPastedAnswers(db, run.id, {
      answers: ["q001", "q002", "q003"].map((key) => ({ key, answer: GOOD })),
    });
    const items = (await listItems(db, run.id, {})).items;
    for (const [i, it] of items.entries())
      await setVerdict(
        db,
        run.id,
        it.id,
        i < 2 ? { verdict: "pass" } : { verdict: "fail", basis: "no dish", attribution: "generation" },
        alice,
      );
    expect((await runGate(db, run.id)).result).toMatchObject({ passed: true, counts: { pass: 2, threshold: 2 } });
    await updateSet(db, setId, { gateThreshold: 3 });
    // the old run's gate is what it was, and the report says which threshold gates it and what the set says today
    expect((await runGate(db, run.id)).result).toMatchObject({ passed: true, counts: { threshold: 2 } });
    const report = await runReport(db, run.id);
    expect(report.set).toMatchObject({ gateThreshold: 2, currentGateThreshold: 3 });
    expect(report.run).toMatchObject({ gateThreshold: 2, setGateThreshold: 3 });
    const later = await createRun(db, { setVersionId, mode: "pasted" }, null);
    expect(later.gateThreshold).toBe(3);
  });

  it("report: machine and human pass rates side by side, completeness, breakdowns, agreement, tokens", async () => {
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(4), threshold: 3 });
    const run = await createRun(db, { setVersionId, mode: "pasted", tier: "pipeline_live" }, null);
    await submitPastedAnswers(db, run.id, {
      answers: [
        { key: "q001", answer: GOOD, latencyMs: 100 },
        { key: "q002", answer: GOOD, latencyMs: 300 },
        { key: "q003", answer: BAD, latencyMs: 200 },
        { key: "q004", answer: BAD, latencyMs: 400 },
      ],
    });
    const items = (await listItems(db, run.id, {})).items;
    await setVerdict(db, run.id, items[0]!.id, { verdict: "pass" }, alice);
    await setVerdict(
      db,
      run.id,
      items[1]!.id,
      { verdict: "fail", basis: "price is wrong", attribution: "data" },
      alice,
    );
    await setVerdict(db, run.id, items[2]!.id, { verdict: "fail", basis: "no dish", attribution: "generation" }, alice);
    const r = await runReport(db, run.id);
    expect(r.machine).toMatchObject({ pass: 2, fail: 2, unknown: 0, passRate: 0.5 });
    expect(r.human).toMatchObject({ pass: 1, fail: 2, unjudged: 1, passRate: 0.25, passRateOfJudged: 0.3333 });
    expect(r.completeness).toMatchObject({ judged: 3, total: 4, ratio: 0.75 });
    // 95 % Wilson intervals, unjudged questions not in n; statsmodels proportion_confint(method="wilson"):
    // 1 of 3 = (0.061492, 0.792340), 2 of 4 = (0.150039, 0.849961); rounded outwards to 4 decimals
    expect(r.human).toMatchObject({ n: 3, interval: { low: 0.0614, high: 0.7924 } });
    expect(r.machine).toMatchObject({ n: 4, interval: { low: 0.15, high: 0.85 } });
    expect(r.breakdown.byTier).toEqual([
      expect.objectContaining({
        tier: "pipeline_live",
        total: 4,
        machinePass: 2,
        humanPass: 1,
        humanN: 3,
        humanInterval: { low: 0.0614, high: 0.7924 },
        machineN: 4,
        machineInterval: { low: 0.15, high: 0.85 },
      }),
    ]);
    expect(r.breakdown.byClassification.every((c) => c.humanN === c.judged)).toBe(true);
    expect(r.gate.counts).toMatchObject({ judged: 3, unjudged: 1, interval: { low: 0.0614, high: 0.7924 } });
    expect(r.breakdown.byClassification.map((c) => c.classification)).toEqual(["breakfast", "price"]);
    expect(r.breakdown.byAttribution).toEqual([
      { attribution: "data", fails: 1 },
      { attribution: "generation", fails: 1 },
    ]);
    expect(r.agreement).toMatchObject({ pairs: 3, agreed: 2, rawAgreement: 0.6667 });
    expect(r.agreement.kappa).toBeCloseTo(0.4, 4);
    expect(r.latency).toMatchObject({ items: 4, totalMs: 1000, meanMs: 250, p50Ms: 200, p95Ms: 400, maxMs: 400 });
    expect(r.gate.passed).toBe(false);
  });

  it("compare, re-run the same batch, usage", async () => {
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(3), threshold: 2 });
    const a = await createRun(db, { setVersionId, mode: "pasted", environment: "staging" }, null);
    await submitPastedAnswers(db, a.id, {
      answers: [
        { key: "q001", answer: GOOD },
        { key: "q002", answer: BAD },
        { key: "q003", answer: GOOD },
      ],
    });
    const ai = (await listItems(db, a.id, {})).items;
    await setVerdict(db, a.id, ai[0]!.id, { verdict: "pass" }, alice);
    await setVerdict(db, a.id, ai[1]!.id, { verdict: "fail", basis: "x", attribution: "generation" }, alice);
    await setVerdict(db, a.id, ai[2]!.id, { verdict: "pass" }, alice);
    await addVersion(db, agentId, { workflow: llmWorkflow(), note: "fix" }, null, {});
    const b = await rerunRun(db, a.shortId, {}, null);
    expect(b).toMatchObject({
      rerunOfId: a.id,
      setVersionId,
      mode: "pasted",
      tier: "pipeline",
      environment: "staging",
      status: "created",
    });
    expect(b.workflowVersion).toBeGreaterThan(a.workflowVersion);
    await submitPastedAnswers(db, b.id, {
      answers: [
        { key: "q001", answer: GOOD },
        { key: "q002", answer: GOOD },
        { key: "q003", answer: BAD },
      ],
    });
    const bi = (await listItems(db, b.id, {})).items;
    await setVerdict(db, b.id, bi[0]!.id, { verdict: "pass" }, alice);
    await setVerdict(db, b.id, bi[1]!.id, { verdict: "pass" }, alice);
    await setVerdict(db, b.id, bi[2]!.id, { verdict: "fail", basis: "no price", attribution: "generation" }, alice);
    const c = await compareTwo(db, { run_a: a.shortId, run_b: b.id });
    expect(c.summary).toMatchObject({ both_pass: 1, fixed: 1, regressed: 1, both_fail: 0 });
    expect(c.passRates.human).toMatchObject({ a: 0.6667, b: 0.6667, delta: 0, n: { a: 3, b: 3 } });
    // one set version: paired; b = c = 1 -> p = 1
    expect(c.paired).toMatchObject({ bothPass: 1, onlyA: 1, onlyB: 1, bothFail: 0, n: 3, pValue: 1 });
    expect(c.warnings).toEqual([]);
    const other = await seedSet(db, { agentId, samples: questions(3) });
    const live = await createRun(db, { setVersionId: other.setVersionId, mode: "pasted", tier: "pipeline_live" }, null);
    expect((await compareTwo(db, { run_a: a.id, run_b: live.id })).warnings.map((w) => w.code)).toEqual([
      "DIFFERENT_SET",
      "DIFFERENT_TIER",
      "DIFFERENT_ENVIRONMENT",
    ]);

    const u = await usage(db, { agentId });
    expect(u.totals.runs).toBeGreaterThanOrEqual(3);
    expect(u.totals.answeredItems).toBeGreaterThanOrEqual(6);
    expect(u.days[0]).toMatchObject({
      agentId,
      agentName: "Eval agent",
      answering: { modelCalls: 0 },
      judging: { modelCalls: 0 },
    });
    await expect(usage(db, { from: "2026-02-01", to: "2026-01-01" })).rejects.toMatchObject({ status: 400 });
  });
});
