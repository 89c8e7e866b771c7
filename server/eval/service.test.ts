import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, type PrismaClient } from "../db/generated/client";
import type { Principal } from "../auth/service";
import { addVersion } from "../agents/service";
import { createEvalTestDb, llmWorkflow, questions, seedAgent, seedSet } from "./testing";
import {
  addSample,
  adoptSuggestions,
  cancelRun,
  closeAnswering,
  compare,
  createBadCase,
  createBadCasesForRun,
  getBadCase,
  createRun,
  createSet,
  createVersion,
  deleteSet,
  exportVersion,
  freezeVersion,
  getItem,
  getSet,
  importSamples,
  listBadCases,
  listItems,
  listSamples,
  rerunRun,
  runGate,
  runReport,
  setVerdict,
  startRun,
  submitPastedAnswers,
  updateBadCase,
  updateSet,
  updateSample,
  updateVersion,
  usage,
  needsSpotCheck,
  listQueue,
  listRuns,
} from "./index";
import { createUser } from "../auth/service";

const alice: Principal = { kind: "user", userId: "user_alice", email: "alice@example.com", role: "annotator" };
const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const BAD = "Hello there.";

describe("evaluation center services (embedded database)", () => {
  let db: PrismaClient;
  let close: () => Promise<void>;
  let agentId: string;
  beforeAll(async () => {
    ({ db, close } = await createEvalTestDb());
    agentId = (await seedAgent(db)).id;
  }, 60_000);
  afterAll(async () => close());

  describe("sets, versions, samples", () => {
    it("a frozen version is immutable in the service AND in the database; a new version is an editable copy", async () => {
      const { set } = await seedSet(db, { agentId, samples: questions(3), threshold: 2 });
      const v1 = await listSamples(db, set.id, 1);
      expect(v1.version.status).toBe("frozen");
      const sample = v1.items[0]!;
      await expect(updateSample(db, sample.id, { question: "changed" })).rejects.toMatchObject({
        status: 409,
        code: "SET_VERSION_FROZEN",
      });
      await expect(addSample(db, set.id, 1, { question: "new", expectedPoints: ["x"] })).rejects.toMatchObject({
        code: "SET_VERSION_FROZEN",
      });
      await expect(importSamples(db, set.id, 1, { format: "json", content: "[]" })).rejects.toMatchObject({
        code: "SET_VERSION_FROZEN",
      });
      await expect(updateVersion(db, set.id, 1, { note: "x" })).rejects.toMatchObject({ code: "SET_VERSION_FROZEN" });
      // below the service: the triggers
      await expect(db.evalSample.update({ where: { id: sample.id }, data: { question: "tampered" } })).rejects.toThrow(
        /frozen/,
      );
      await expect(db.evalSample.delete({ where: { id: sample.id } })).rejects.toThrow(/frozen/);
      await expect(
        db.evalSample.create({ data: { setVersionId: sample.setVersionId, key: "zz", position: 99, question: "x" } }),
      ).rejects.toThrow(/frozen/);
      await expect(
        db.evalSetVersion.update({ where: { id: sample.setVersionId }, data: { status: "draft" } }),
      ).rejects.toThrow(/frozen/);
      expect((await listSamples(db, set.id, 1)).items[0]!.question).toBe(sample.question);

      const v2 = await createVersion(db, set.id, {}, null);
      expect(v2).toMatchObject({ version: 2, status: "draft", sampleCount: 3, note: "copy of v1" });
      const copy = (await listSamples(db, set.id, 2)).items[0]!;
      expect(copy.key).toBe(sample.key);
      expect(copy.id).not.toBe(sample.id);
      expect((await updateSample(db, copy.id, { question: "changed in v2" })).question).toBe("changed in v2");
      expect((await listSamples(db, set.id, 1)).items[0]!.question).toBe(sample.question);
      expect((await freezeVersion(db, set.id, 2, null)).status).toBe("frozen");
      expect((await freezeVersion(db, set.id, 2, null)).status).toBe("frozen"); // idempotent
    });

    it("freezing needs samples, each with expected points", async () => {
      const set = await createSet(db, { agentId, name: "Empty", kind: "golden", gateThreshold: 1 }, null);
      await expect(freezeVersion(db, set.id, 1, null)).rejects.toMatchObject({
        status: 409,
        code: "SET_VERSION_INCOMPLETE",
      });
      await addSample(db, set.id, 1, { key: "nopoints", question: "q" });
      const err = await freezeVersion(db, set.id, 1, null).catch((e) => e);
      expect(err).toMatchObject({ code: "SET_VERSION_INCOMPLETE" });
      expect(err.details).toEqual([expect.objectContaining({ key: "nopoints", field: "expected_points" })]);
    });

    it("source_trace_id is unique within a version; keys too", async () => {
      const set = await createSet(db, { agentId, name: "Pool", kind: "regression_pool", gateThreshold: 0 }, null);
      await addSample(db, set.id, 1, { question: "q", sourceTraceId: "trace-1", expectedPoints: ["p"] });
      await expect(addSample(db, set.id, 1, { question: "q2", sourceTraceId: "trace-1" })).rejects.toMatchObject({
        status: 409,
      });
      await expect(addSample(db, set.id, 1, { key: "q001", question: "q3" })).rejects.toMatchObject({ status: 409 });
    });

    it("import is all or nothing with row errors; append refuses clashes; replace replaces; export round-trips", async () => {
      const set = await createSet(db, { agentId, name: "Import", kind: "golden", gateThreshold: 1 }, null);
      const bad = await importSamples(db, set.id, 1, {
        format: "csv",
        content: 'key,question,expected_points\nq1,Fine?,a|b\nq2,,a\nq3,Also fine,"[1"\n',
      }).catch((e) => e);
      expect(bad).toMatchObject({ status: 400, code: "IMPORT_INVALID" });
      expect(bad.details).toEqual([
        { row: 3, field: "question", message: "question is required" },
        expect.objectContaining({ row: 4, field: "expected_points" }),
      ]);
      expect((await listSamples(db, set.id, 1)).items).toHaveLength(0);
      const ok = await importSamples(db, set.id, 1, {
        format: "jsonl",
        content: '{"key":"a","question":"A?","expected_points":["x"]}\n{"question":"B?","expected_points":"y|z"}',
      });
      expect(ok).toMatchObject({ imported: 2, mode: "append" });
      const clash = await importSamples(db, set.id, 1, {
        format: "json",
        content: '[{"key":"a","question":"again"}]',
      }).catch((e) => e);
      expect(clash.details).toEqual([{ row: 1, field: "key", message: 'key "a" already exists in this version' }]);
      await importSamples(db, set.id, 1, {
        format: "json",
        content: '[{"key":"c","question":"C?","expected_points":["w"]}]',
        mode: "replace",
      });
      expect((await listSamples(db, set.id, 1)).items.map((s) => s.key)).toEqual(["c"]);
      const exported = await exportVersion(db, set.id, 1, "csv");
      expect(exported.contentType).toContain("text/csv");
      expect(exported.body).toContain("c,C?");
      const tooMany = Array.from({ length: 10_001 }, (_, i) => JSON.stringify({ question: `q${i}` })).join("\n");
      await expect(importSamples(db, set.id, 1, { format: "jsonl", content: tooMany })).rejects.toMatchObject({
        status: 413,
        code: "EVAL_LIMIT_EXCEEDED",
      });
    });

    it("a set with runs cannot be deleted; one without can (frozen versions included)", async () => {
      const { set } = await seedSet(db, { agentId, samples: questions(1), threshold: 1 });
      await deleteSet(db, set.id);
      await expect(getSet(db, set.id)).rejects.toMatchObject({ status: 404 });
      const other = await seedSet(db, { agentId, samples: questions(1), threshold: 1 });
      await createRun(db, { setVersionId: other.setVersionId, mode: "pasted" }, null);
      await expect(deleteSet(db, other.set.id)).rejects.toMatchObject({ status: 409, code: "SET_HAS_RUNS" });
    });
  });

  describe("runs, pasted answers, verdicts, reports", () => {
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
      await expect(
        submitPastedAnswers(db, run.id, { answers: [{ key: "q001", answer: "late" }] }),
      ).rejects.toMatchObject({ status: 409, code: "RUN_STATE_CONFLICT" });
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
      const { setVersionId } = await seedSet(db, { agentId, samples: questions(4), threshold: 2 });
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

    it("what the pages read: the annotation queue with progress and filters, runs by tier/mode/re-run, samples paged and searched, Bad Cases with scenario and author, who did it", async () => {
      const user = await createUser(db, {
        email: "reviewer@example.com",
        name: "Rita Reviewer",
        password: "a-long-password",
        role: "annotator",
      });
      const rita: Principal = { kind: "user", userId: user.id, email: user.email, role: "annotator" };
      const { set, setVersionId } = await seedSet(db, { agentId, samples: questions(6), threshold: 3, name: "Pages" });
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
      await setVerdict(
        db,
        run.id,
        items[2]!.id,
        { verdict: "fail", basis: "no dish", attribution: "generation" },
        alice,
      );
      const r = await runReport(db, run.id);
      expect(r.machine).toMatchObject({ pass: 2, fail: 2, unknown: 0, passRate: 0.5 });
      expect(r.human).toMatchObject({ pass: 1, fail: 2, unjudged: 1, passRate: 0.25, passRateOfJudged: 0.3333 });
      expect(r.completeness).toMatchObject({ judged: 3, total: 4, ratio: 0.75 });
      expect(r.breakdown.byTier).toEqual([
        expect.objectContaining({ tier: "pipeline_live", total: 4, machinePass: 2, humanPass: 1 }),
      ]);
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
      const c = await compare(db, { run_a: a.shortId, run_b: b.id });
      expect(c.summary).toMatchObject({ both_pass: 1, fixed: 1, regressed: 1, both_fail: 0 });
      expect(c.passRates.human).toEqual({ a: 0.6667, b: 0.6667, delta: 0 });
      expect(c.warnings).toEqual([]);
      const other = await seedSet(db, { agentId, samples: questions(3) });
      const live = await createRun(
        db,
        { setVersionId: other.setVersionId, mode: "pasted", tier: "pipeline_live" },
        null,
      );
      expect((await compare(db, { run_a: a.id, run_b: live.id })).warnings.map((w) => w.code)).toEqual([
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
});
