import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, type PrismaClient } from "../../db/generated/client";
import type { Principal } from "../../auth/service";
import { createEvalTestDb, questions, seedAgent, seedSet } from "../testing";
import {
  adoptSuggestions,
  createBadCase,
  createBadCasesForRun,
  getBadCase,
  createRun,
  getItem,
  listBadCases,
  listItems,
  runGate,
  runReport,
  setVerdict,
  submitPastedAnswers,
  updateBadCase,
  needsSpotCheck,
} from "../index";

const alice: Principal = { kind: "user", userId: "user_alice", email: "alice@example.com", role: "annotator" };
const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const BAD = "Hello there.";

describe("evaluation services: verdicts, bulk adopt, spot-checks, Bad Cases (embedded database)", () => {
  let db: PrismaClient;
  let close: () => Promise<void>;
  let agentId: string;
  beforeAll(async () => {
    ({ db, close } = await createEvalTestDb());
    agentId = (await seedAgent(db)).id;
  }, 60_000);
  afterAll(async () => close());

  it("verdicts: fail needs basis and attribution; every change is kept; the run completes when all are judged", async () => {
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(2) });
    const run = await createRun(db, { setVersionId, mode: "pasted" }, null);
    const [a, b] = (await listItems(db, run.id, {})).items;
    await expect(setVerdict(db, run.id, a!.id, { verdict: "pass" }, alice)).rejects.toMatchObject({
      status: 409,
      code: "ITEM_NOT_JUDGEABLE",
    });
    await submitPastedAnswers(db, run.id, {
      answers: [
        { key: "q001", answer: GOOD },
        { key: "q002", answer: BAD },
      ],
    });
    await expect(setVerdict(db, run.id, b!.id, { verdict: "fail" }, alice)).rejects.toMatchObject({
      status: 400,
      code: "VERDICT_BASIS_REQUIRED",
    });
    await expect(setVerdict(db, run.id, b!.id, { verdict: "fail", basis: "  " }, alice)).rejects.toMatchObject({
      code: "VERDICT_BASIS_REQUIRED",
    });
    await expect(setVerdict(db, run.id, b!.id, { verdict: "fail", basis: "no dish" }, alice)).rejects.toMatchObject({
      status: 400,
      code: "VERDICT_ATTRIBUTION_REQUIRED",
    });
    await expect(
      setVerdict(db, run.id, b!.id, { verdict: "fail", basis: "no dish", attribution: "astrology" }, alice),
    ).rejects.toMatchObject({ code: "VERDICT_ATTRIBUTION_REQUIRED" });
    const failed = await setVerdict(
      db,
      run.id,
      b!.id,
      { verdict: "fail", basis: "no dish recommended", attribution: "generation" },
      alice,
    );
    expect(failed.verdict).toMatchObject({
      verdict: "fail",
      source: "human",
      basis: "no dish recommended",
      attribution: "generation",
      classification: "breakfast",
      byId: "user_alice",
    });
    await setVerdict(
      db,
      run.id,
      a!.id,
      { verdict: "fail", basis: "wrong price", attribution: "data", classification: "pricing" },
      alice,
    );
    const changed = await setVerdict(
      db,
      run.id,
      a!.id,
      { verdict: "pass" },
      { kind: "token", tokenId: "tok1", userId: null, role: "admin" },
    );
    expect(changed.verdict).toMatchObject({
      verdict: "pass",
      basis: null,
      attribution: null,
      classification: "pricing",
      byId: "token:tok1",
    });
    const item = await getItem(db, run.id, a!.id);
    expect(item.history).toHaveLength(2);
    expect(item.history[0]).toMatchObject({
      before: null,
      after: { verdict: "fail", basis: "wrong price" },
      byId: "user_alice",
    });
    expect(item.history[1]).toMatchObject({
      before: { verdict: "fail" },
      after: { verdict: "pass", source: "human" },
      byId: "token:tok1",
    });
    const same = await setVerdict(db, run.id, a!.id, { verdict: "pass", classification: "pricing" }, alice);
    expect(same.changed).toBe(false);
    expect((await getItem(db, run.id, a!.id)).history).toHaveLength(2);
    const report = await runReport(db, run.id);
    expect(report.run.status).toBe("completed");
  });

  it("bulk adopt: suggestions become adopted verdicts, unknowns do not; spot-check list; unknowns block the gate", async () => {
    const { setVersionId } = await seedSet(db, {
      agentId,
      samples: questions(4),
      threshold: 2,
      // no audit of adopted passes here (its own tests: verdicts/audit-sample.test.ts, eval-audit): the spot-check rule alone
      auditRate: 0,
    });
    const run = await createRun(db, { setVersionId, mode: "pasted" }, null);
    await submitPastedAnswers(db, run.id, {
      answers: [
        { key: "q001", answer: GOOD },
        { key: "q002", answer: GOOD },
        { key: "q003", answer: BAD },
        { key: "q004", answer: "I recommend something; it costs $3." }, // one point partial -> unknown
      ],
    });
    const items = (await listItems(db, run.id, {})).items;
    expect(items.map((i) => i.suggestion!.verdict)).toEqual(["pass", "pass", "fail", "unknown"]);
    const adopted = await adoptSuggestions(db, run.id, alice);
    expect(adopted).toMatchObject({ adopted: 3, skipped: { unknown: 1, noSuggestion: 0, alreadyJudged: 0 } });
    expect(adopted.spotCheck.map((i) => i.key)).toEqual(["q003", "q004"]);
    const after = (await listItems(db, run.id, {})).items;
    expect(after.map((i) => i.verdict?.source ?? null)).toEqual(["adopted", "adopted", "adopted", null]);
    expect(after[2]!.verdict).toMatchObject({ verdict: "fail", attribution: "generation" });
    expect(after[2]!.verdict!.basis).toMatch(/^adopted machine suggestion/);
    const spot = await listItems(db, run.id, { spotCheck: "true" });
    expect(spot.items.map((i) => i.key)).toEqual(["q003", "q004"]);
    // the adopted passes count as the verdicts they are (2 >= threshold 2), but the unknown one blocks, and so does
    // the adopted fail on the spot-check list until a person has typed its verdict: pending, not fail
    let gate = (await runGate(db, run.shortId)).result;
    expect(gate).toMatchObject({ passed: false, status: "pending" });
    expect(gate.reasons.map((r) => r.code)).toEqual(["GATE_UNJUDGED", "GATE_SPOT_CHECKS_LEFT"]);
    expect(gate.unjudged).toEqual(["q004"]);
    expect(gate.spotChecksLeft).toEqual(["q003", "q004"]);
    await setVerdict(db, run.id, after[3]!.id, { verdict: "pass" }, alice);
    gate = (await runGate(db, run.shortId)).result;
    expect(gate).toMatchObject({ status: "pending", missing: ["1 spot-check left"], spotChecksLeft: ["q003"] });
    // confirming the adopted fail (the same verdict, typed) checks it
    await setVerdict(
      db,
      run.id,
      after[2]!.id,
      { verdict: "fail", basis: "greets only", attribution: "generation" },
      alice,
    );
    gate = (await runGate(db, run.shortId)).result;
    expect(gate).toMatchObject({
      passed: true,
      status: "pass",
      counts: { pass: 3, passTyped: 1, passAdopted: 2, fail: 1, unjudged: 0, spotChecksLeft: 0, typed: 2 },
    });
    // adopting again changes nothing
    expect((await adoptSuggestions(db, run.id, alice)).adopted).toBe(0);
    const report = await runReport(db, run.id);
    expect(report.completeness).toMatchObject({ judged: 4, total: 4, adopted: 2, human: 2 });
    // "Judge vs people" and "Completeness" count the same typed verdicts
    expect(report.agreement).toMatchObject({ pairs: 1, excludedAdopted: 2, excludedUnknown: 1, typed: 2 });
  });

  it("the spot-check filter and needsSpotCheck are one rule, and the suggestion filters read the stored shape", async () => {
    const cases: Array<{ verdict: "pass" | "fail" | "unknown"; flags: string[] } | null> = [null];
    for (const verdict of ["pass", "fail", "unknown"] as const)
      for (const flags of [[], ["empty_items"], ["no_query", "refusal"]]) cases.push({ verdict, flags });
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(cases.length), threshold: 1 });
    const run = await createRun(db, { setVersionId, mode: "pasted" }, null);
    const items = (await listItems(db, run.id, {})).items;
    for (const [i, c] of cases.entries()) {
      const suggestion = c
        ? {
            verdict: c.verdict,
            judge: "builtin",
            coverage: [],
            failedRules: [],
            rulesPassed: 0,
            flags: c.flags.map((flag) => ({ flag, detail: "" })),
            rationale: "",
          }
        : Prisma.DbNull;
      await db.evalRunItem.update({ where: { id: items[i]!.id }, data: { suggestion } });
    }
    const stored = (await listItems(db, run.id, {})).items;
    const expected = stored.filter((i) => needsSpotCheck(i.suggestion)).map((i) => i.key);
    expect(expected.length).toBeGreaterThan(0);
    expect((await listItems(db, run.id, { spotCheck: true })).items.map((i) => i.key)).toEqual(expected);
    for (const v of ["pass", "fail", "unknown"] as const) {
      expect((await listItems(db, run.id, { suggestion: v })).items.map((i) => i.key)).toEqual(
        stored.filter((i) => i.suggestion?.verdict === v).map((i) => i.key),
      );
    }
    expect((await listItems(db, run.id, { suggestion: "none" })).items.map((i) => i.key)).toEqual([stored[0]!.key]);
    // the report reads the same stored shape: verdict counts and flag names
    const report = await runReport(db, run.id);
    expect(report.machine).toMatchObject({ pass: 3, fail: 3, unknown: 3, none: 1 });
    expect(Object.fromEntries(report.breakdown.byFlag.map((f) => [f.flag, f.items]))).toEqual({
      empty_items: 3,
      no_query: 3,
      refusal: 3,
    });
  });

  it("bad cases: only from a failed item, idempotent, listed and updated; bulk for a run", async () => {
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(3) });
    const run = await createRun(db, { setVersionId, mode: "pasted" }, null);
    await submitPastedAnswers(db, run.id, {
      answers: [
        { key: "q001", answer: GOOD },
        { key: "q002", answer: BAD },
        { key: "q003", answer: BAD },
      ],
    });
    const items = (await listItems(db, run.id, {})).items;
    await setVerdict(db, run.id, items[0]!.id, { verdict: "pass" }, alice);
    await setVerdict(
      db,
      run.id,
      items[1]!.id,
      { verdict: "fail", basis: "nothing useful", attribution: "retrieval" },
      alice,
    );
    await setVerdict(
      db,
      run.id,
      items[2]!.id,
      { verdict: "fail", basis: "nothing useful", attribution: "intent" },
      alice,
    );
    await expect(createBadCase(db, run.id, items[0]!.id, {}, alice)).rejects.toMatchObject({
      status: 409,
      code: "BAD_CASE_REQUIRES_FAIL",
    });
    const bc = await createBadCase(db, run.id, items[1]!.id, { notes: "see trace" }, alice);
    expect(bc).toMatchObject({
      created: true,
      badCase: {
        status: "open",
        attribution: "retrieval",
        sampleKey: "q002",
        runShortId: run.shortId,
        notes: "see trace",
      },
    });
    expect((await createBadCase(db, run.id, items[1]!.id, {}, alice)).created).toBe(false);
    const bulk = await createBadCasesForRun(db, run.id, alice);
    expect(bulk.created).toBe(1);
    // made in one batch: the Bad Case, its title and its created event
    expect(bulk.items[0]).toMatchObject({
      sampleKey: "q003",
      attribution: "intent",
      title: expect.stringMatching(/^q003: /),
      status: "open",
    });
    expect((await getBadCase(db, bulk.items[0]!.id)).history).toEqual([
      expect.objectContaining({ kind: "created", toStatus: "open", runId: run.id }),
    ]);
    expect((await createBadCasesForRun(db, run.id, alice)).created).toBe(0);
    expect((await listBadCases(db, { runId: run.shortId })).items).toHaveLength(2);
    const updated = await updateBadCase(db, bc.badCase.id, { status: "fixing" });
    expect(updated.status).toBe("fixing");
    expect((await listBadCases(db, { runId: run.id, status: "fixing" })).items.map((b) => b.id)).toEqual([
      bc.badCase.id,
    ]);
  });
});
