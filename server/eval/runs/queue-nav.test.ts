import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../db/generated/client";
import type { Principal } from "../../auth/service";
import { createEvalTestDb, questions, seedAgent, seedSet } from "../testing";
import {
  adoptSuggestions,
  createRun,
  listQueue,
  queueNeighbours,
  reviewProgress,
  setVerdict,
  submitPastedAnswers,
} from "../index";
import { NEIGHBOUR_WINDOW } from "./items";

const ann: Principal = { kind: "user", userId: "user_ann", email: "ann@example.com", role: "annotator" };
const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const BAD = "Hello there.";

/** What the annotation page reads besides the rows: the progress counted now, and an item's place and neighbours. */
describe("annotation queue: review progress and an item's neighbours (embedded database)", () => {
  let db: PrismaClient;
  let close: () => Promise<void>;
  let runId: string;
  let ids: string[];
  beforeAll(async () => {
    ({ db, close } = await createEvalTestDb());
    const agentId = (await seedAgent(db)).id;
    const { setVersionId } = await seedSet(db, {
      agentId,
      samples: questions(150),
      threshold: 100,
      name: "Long queue",
      // no audit of adopted passes here (its own tests: verdicts/audit-sample.test.ts, eval-audit): the spot-check rule alone
      auditRate: 0,
    });
    const run = await createRun(db, { setVersionId, mode: "pasted", tier: "invoke" }, ann);
    runId = run.id;
    // every third answer is bad: its suggestion fails (a spot-check item)
    await submitPastedAnswers(db, run.id, {
      answers: questions(150).map((q, i) => ({ key: q.key, answer: i % 3 === 2 ? BAD : GOOD })),
    });
    const first = await listQueue(db, run.id, { limit: 500 });
    ids = first.items.map((i) => i.id);
  }, 120_000);
  afterAll(async () => close());

  it("the progress is counted by the server after every verdict: adoptable and unknown go down, spot-check left follows the one rule", async () => {
    const before = await reviewProgress(db, runId);
    expect(before.counts).toEqual({
      total: 150,
      judged: 0,
      human: 0,
      adopted: 0,
      spotCheckLeft: 50,
      adoptable: 150,
      unknownOpen: 0,
    });
    // a person judges a spot-check item (q003, bad) and a plain one (q001)
    await setVerdict(
      db,
      runId,
      ids[2]!,
      { verdict: "fail", basis: "no dish", attribution: "generation", expectedVersion: 0 },
      ann,
    );
    await setVerdict(db, runId, ids[0]!, { verdict: "pass", expectedVersion: 0 }, ann);
    const after = await reviewProgress(db, runId);
    expect(after.counts).toEqual({
      total: 150,
      judged: 2,
      human: 2,
      adopted: 0,
      spotCheckLeft: 49,
      adoptable: 148,
      unknownOpen: 0,
    });
    expect(after.progress).toMatchObject({ total: 150, judged: 2 });
    // the queue's first page carries the same counts
    expect((await listQueue(db, runId, { limit: 1 })).counts).toMatchObject({ ...after.counts, matching: 150 });
  });

  it("an item beyond the first page: its place, the items around it under the filters, and the next without a verdict", async () => {
    const keys = (rows: Array<{ key: string }>) => rows.map((r) => r.key);
    const last = await queueNeighbours(db, runId, ids[149]!, {});
    expect(last).toMatchObject({ itemId: ids[149], position: 150, matching: 150, firstPosition: 130, after: [] });
    expect(keys(last.before)).toEqual(Array.from({ length: NEIGHBOUR_WINDOW }, (_, i) => `q${130 + i}`));
    // after the last open item comes the first open one before it (q002: q001 and q003 are judged)
    expect(last.nextOpen?.id).toBe(ids[1]);

    const mid = await queueNeighbours(db, runId, ids[119]!, {});
    expect(mid).toMatchObject({ position: 120, firstPosition: 100, nextOpen: { key: "q121" } });
    expect(mid.before.at(-1)?.key).toBe("q119");
    expect(keys(mid.after)).toEqual(Array.from({ length: NEIGHBOUR_WINDOW }, (_, i) => `q${121 + i}`));

    // under a filter: spot-check items are q003, q006, ...; q120 is the 40th of them
    const spot = await queueNeighbours(db, runId, ids[119]!, { spotCheck: true });
    expect(spot).toMatchObject({ position: 40, matching: 50, firstPosition: 20 });
    expect(spot.before.at(-1)?.key).toBe("q117");
    expect(keys(spot.after)).toEqual(Array.from({ length: 10 }, (_, i) => `q${123 + 3 * i}`));
    // an item that does not match the filter still has the items around it, but no place
    const off = await queueNeighbours(db, runId, ids[120]!, { spotCheck: true });
    expect(off).toMatchObject({ position: null, firstPosition: 21 });
    expect([off.before.at(-1)?.key, off.after[0]?.key]).toEqual(["q120", "q123"]);
    // the first item: nothing before it
    expect(await queueNeighbours(db, runId, ids[0]!, {})).toMatchObject({
      before: [],
      firstPosition: 1,
      after: expect.arrayContaining([expect.objectContaining({ key: "q002" })]),
    });
    // "no verdict": q001 is judged, so it has no place there; the first open item after it is q002
    expect(await queueNeighbours(db, runId, ids[0]!, { verdict: "none" })).toMatchObject({
      position: null,
      matching: 148,
      after: expect.arrayContaining([expect.objectContaining({ key: "q004" })]),
      nextOpen: { key: "q002" },
    });
  });

  it("an unknown item is 404; after adoption nothing is adoptable and the spot-check items wait for a person", async () => {
    await expect(queueNeighbours(db, runId, "nope", {})).rejects.toMatchObject({ status: 404 });
    await adoptSuggestions(db, runId, ann);
    expect((await reviewProgress(db, runId)).counts).toEqual({
      total: 150,
      judged: 150,
      human: 2,
      adopted: 148,
      spotCheckLeft: 49,
      adoptable: 0,
      unknownOpen: 0,
    });
    expect((await queueNeighbours(db, runId, ids[0]!, {})).nextOpen).toBeNull();
  });
});
