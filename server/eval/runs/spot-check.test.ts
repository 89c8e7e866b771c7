import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../db/generated/client";
import type { Principal } from "../../auth/service";
import { createEvalTestDb, questions, seedAgent, seedSet } from "../testing";
import {
  adoptSuggestions,
  createRun,
  getItem,
  getRun,
  listQueue,
  queueNeighbours,
  reviewProgress,
  runGate,
  setVerdict,
  submitPastedAnswers,
  undoVerdict,
} from "../index";

/**
 * Spot-check after adopt (issue 20): an item is left until a person has typed its verdict; the spot-check queue's
 * "next" goes to the items left (adopted ones too); the tag goes once a person decided; undo takes back one's own last
 * typed verdict, one step, keeping both changes in the history.
 */
const ana: Principal = { kind: "user", userId: "user_ana", email: "ana@example.com", role: "annotator" };
const bo: Principal = { kind: "user", userId: "user_bo", email: "bo@example.com", role: "annotator" };
const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const BAD = "Hello there.";

describe("spot-check after adopt, and undo", () => {
  let db: PrismaClient;
  let close: () => Promise<void>;
  let runId: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    ({ db, close } = await createEvalTestDb());
    const agentId = (await seedAgent(db)).id;
    const { setVersionId } = await seedSet(db, {
      agentId,
      samples: questions(6),
      threshold: 4,
      // no audit of adopted passes here (its own tests: verdicts/audit-sample.test.ts, eval-audit): the spot-check rule alone
      auditRate: 0,
    });
    const run = await createRun(db, { setVersionId, mode: "pasted" }, null);
    runId = run.id;
    // q002 and q005 are bad (suggestion fail: spot-check), the rest good (pass)
    await submitPastedAnswers(db, run.id, {
      answers: ["q001", "q002", "q003", "q004", "q005", "q006"].map((key) => ({
        key,
        answer: key === "q002" || key === "q005" ? BAD : GOOD,
      })),
    });
    for (const row of (await listQueue(db, run.id, {})).items) ids[row.key] = row.id;
  }, 60_000);
  afterAll(async () => close());

  it("adopted spot-check items stay left until typed; next within the spot-check filter reaches them; the tag goes", async () => {
    expect((await adoptSuggestions(db, runId, ana)).adopted).toBe(6);
    const spot = await listQueue(db, runId, { spotCheck: "true" });
    expect(spot.items.map((r) => [r.key, r.spotCheck, r.spotCheckLeft])).toEqual([
      ["q002", true, true],
      ["q005", true, true],
    ]);
    expect(spot.counts?.spotCheckLeft).toBe(2);
    // every item has a verdict, yet under the spot-check filter the next one still to do is the adopted q005
    const from2 = await queueNeighbours(db, runId, ids.q002!, { spotCheck: "true" });
    expect(from2.nextOpen?.key).toBe("q005");
    // without the filter "next open" means no verdict: none
    expect((await queueNeighbours(db, runId, ids.q002!, {})).nextOpen).toBeNull();
    const gate = (await runGate(db, runId)).result;
    expect(gate).toMatchObject({ status: "pending", missing: ["2 spot-checks left"] });
    expect(gate.summary).toMatch(/^PENDING /);

    // a person confirms the adopted fail of q002: the tag goes, the next left is q005 (from q002 and from q005 itself)
    const item = await getItem(db, runId, ids.q002!);
    await setVerdict(
      db,
      runId,
      ids.q002!,
      { verdict: "fail", basis: "greets only", attribution: "generation", expectedVersion: item.verdictVersion },
      ana,
    );
    const after = await listQueue(db, runId, { spotCheck: "true" });
    expect(after.items.map((r) => [r.key, r.spotCheckLeft])).toEqual([
      ["q002", false],
      ["q005", true],
    ]);
    expect((await queueNeighbours(db, runId, ids.q002!, { spotCheck: "true" })).nextOpen?.key).toBe("q005");
    expect((await reviewProgress(db, runId)).counts).toMatchObject({ spotCheckLeft: 1, human: 1, adopted: 5 });
  });

  it("undo takes back one's own last typed verdict (one step), the history keeps both; others' verdicts and stale versions are refused", async () => {
    // q005: Ana passes it (a person overrules the adopted fail), then takes it back
    const v0 = await getItem(db, runId, ids.q005!);
    const passed = await setVerdict(db, runId, ids.q005!, { verdict: "pass", basis: "fine after all" }, ana);
    expect(passed.verdict).toMatchObject({ verdict: "pass", source: "human", basis: "fine after all" });
    expect((await runGate(db, runId)).result.status).toBe("pass");
    // a stale version, or someone else, cannot take it back
    await expect(undoVerdict(db, runId, ids.q005!, { version: v0.verdictVersion }, ana)).rejects.toMatchObject({
      code: "VERDICT_CONFLICT",
    });
    await expect(undoVerdict(db, runId, ids.q005!, { version: passed.verdictVersion }, bo)).rejects.toMatchObject({
      code: "VERDICT_NOT_UNDOABLE",
    });
    const undone = await undoVerdict(db, runId, ids.q005!, { version: passed.verdictVersion }, ana);
    expect(undone.undone).toBe(passed.verdictVersion);
    // back to the adopted fail, left for a spot-check again
    expect(undone.verdict).toMatchObject({ verdict: "fail", source: "adopted" });
    expect(undone.verdictVersion).toBe(passed.verdictVersion + 1);
    const history = (await getItem(db, runId, ids.q005!)).history;
    expect(
      history.map((h) => [(h.after as { verdict: string }).verdict, (h.after as { undoOf?: number }).undoOf]),
    ).toEqual([
      ["fail", undefined],
      ["pass", undefined],
      ["fail", passed.verdictVersion],
    ]);
    expect((await runGate(db, runId)).result).toMatchObject({ status: "pending", spotChecksLeft: ["q005"] });
    // one step: the undo itself cannot be undone; an adoption is not a typed verdict
    await expect(undoVerdict(db, runId, ids.q005!, { version: undone.verdictVersion }, ana)).rejects.toMatchObject({
      code: "VERDICT_NOT_UNDOABLE",
    });
    const adoptedOnly = await getItem(db, runId, ids.q001!);
    await expect(undoVerdict(db, runId, ids.q001!, { version: adoptedOnly.verdictVersion }, ana)).rejects.toMatchObject(
      { code: "VERDICT_NOT_UNDOABLE" },
    );
  });

  it("undoing the only verdict of an item leaves it without one and a completed run awaits review again", async () => {
    const agentId = (await seedAgent(db, "Undo agent")).id;
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(1), threshold: 1 });
    const run = await createRun(db, { setVersionId, mode: "pasted" }, null);
    await submitPastedAnswers(db, run.id, { answers: [{ key: "q001", answer: GOOD }] });
    const id = (await listQueue(db, run.id, {})).items[0]!.id;
    const saved = await setVerdict(db, run.id, id, { verdict: "pass" }, ana);
    expect((await getRun(db, run.id)).status).toBe("completed");
    const undone = await undoVerdict(db, run.id, id, { version: saved.verdictVersion }, ana);
    expect(undone.verdict).toBeNull();
    expect((await getRun(db, run.id)).status).toBe("awaiting_review");
    expect((await runGate(db, run.id)).result).toMatchObject({ status: "pending", unjudged: ["q001"] });
  });

  it("a disputed spot-check item waits for an adjudicator: not a spot-check left, in the queue's counts as in the gate", async () => {
    const agentId = (await seedAgent(db, "Disputed spot-check")).id;
    const { set, setVersionId } = await seedSet(db, {
      agentId,
      samples: questions(2, { prefix: "ds" }),
      threshold: 1,
      auditRate: 0,
    });
    await db.evalSet.update({ where: { id: set.id }, data: { reviewsPerItem: 2 } });
    const run = await createRun(db, { setVersionId, mode: "pasted" }, null);
    // both answers bad: both suggestions fail, both spot-check items
    await submitPastedAnswers(db, run.id, {
      answers: [
        { key: "ds001", answer: BAD },
        { key: "ds002", answer: BAD },
      ],
    });
    const rows = Object.fromEntries((await listQueue(db, run.id, {})).items.map((r) => [r.key, r.id]));
    await setVerdict(db, run.id, rows.ds001!, { verdict: "pass", basis: "fine to me" }, ana);
    await setVerdict(db, run.id, rows.ds001!, { verdict: "fail", basis: "greets only", attribution: "generation" }, bo);
    expect((await getItem(db, run.id, rows.ds001!, "ana")).status).toBe("disputed");
    const gate = (await runGate(db, run.id)).result;
    expect(gate).toMatchObject({ status: "pending", spotChecksLeft: ["ds002"] });
    expect((await reviewProgress(db, run.id)).counts.spotCheckLeft).toBe(gate.spotChecksLeft.length);
    expect((await listQueue(db, run.id, {})).counts?.spotCheckLeft).toBe(1);
  });
});
