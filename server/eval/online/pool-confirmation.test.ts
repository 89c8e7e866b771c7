import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../db/generated/client";
import { createAgent } from "../../agents/service";
import { addTraceToPool, confirmSample, unconfirmSample } from "./pool";
import { loopBoard } from "./board";
import { createSet, createVersion, freezeVersion } from "../sets/sets";
import { getSample } from "../sets/samples";
import { DB_LEGS, legDatabase } from "../../db/test-legs";
import { createEvalTestDb, llmWorkflow, onlineTrace } from "../testing";

/**
 * Confirming is a property of a sample's trace in a regression pool, not of one version's row: a sample frozen
 * unconfirmed in v1 is not a candidate ("not confirmed") again in the drafts that follow, a confirmation reaches every
 * draft with the trace, and a new draft copied from an older version takes the trace's confirmation. The board's
 * counts are SQL, so this runs on the embedded database and on PostgreSQL (skipped with a notice when none is reachable).
 */

describe.each(DB_LEGS)("pool confirmations on the $name", (leg) => {
  let db: PrismaClient;
  const { skip } = legDatabase(leg, {
    open: createEvalTestDb,
    use: (d) => {
      db = d.db;
    },
    prefix: "flowbench_conf",
    what: "the pool confirmation tests",
  });

  it.skipIf(skip)(
    "a sample frozen unconfirmed is not a candidate in later drafts; a confirmation reaches every draft and copies of older versions",
    async () => {
      const created = await createAgent(db, { name: "confirmations", workflow: llmWorkflow() }, null, {});
      const agentId = created.agent.id;
      const trace = (text: string) => onlineTrace(db, agentId, created.version.id, text);
      const pool = await createSet(db, { agentId, name: "Pool", kind: "regression_pool", gateThreshold: 0 }, null);
      const add = async (text: string) =>
        addTraceToPool(db, pool.id, { traceId: await trace(text), expectedPoints: ["a point"] }, null);
      const a = await add("confirmed before the freeze");
      const b = await add("frozen unconfirmed");
      await confirmSample(db, a.sample.id, null);
      await freezeVersion(db, pool.id, 1, null); // "Freeze with 1 unconfirmed": b is taken in as it is
      const c = await add("new after the freeze"); // opens v2, a copy of v1 with c
      expect(c.version).toBe(2);

      const board = await loopBoard(db, { agentId });
      const card = (key: string) => board.cards.find((x) => x.key === key)!;
      // b is in the pool since v1: not a candidate again, with the freeze that took it in in its history
      expect(card(b.sample.key)).toMatchObject({
        version: 2,
        versionStatus: "draft",
        stage: "expectations",
        confirmed: true,
        confirmedVia: "freeze",
      });
      expect(card(b.sample.key).history.find((h) => h.kind === "frozen")).toMatchObject({
        version: 1,
        unconfirmed: true,
      });
      expect(card(a.sample.key)).toMatchObject({ confirmed: true, confirmedVia: "person" });
      expect(card(a.sample.key).history.find((h) => h.kind === "frozen")?.unconfirmed).toBeUndefined();
      expect(card(c.sample.key)).toMatchObject({ stage: "candidate", confirmed: false, confirmedVia: null });
      // the Freeze of v2 names one candidate (c), not the sample v1 already took in
      expect(board.drafts.find((d) => d.setId === pool.id)).toMatchObject({
        version: 2,
        onlineSamples: 3,
        unconfirmed: 1,
      });
      expect(board.counts).toMatchObject({ candidate: 1, expectations: 2 });

      // b cannot become a candidate again: it is in frozen v1
      const bInV2 = board.cards.find((x) => x.key === b.sample.key)!.sampleId;
      await expect(unconfirmSample(db, bInV2)).rejects.toMatchObject({ status: 409, code: "SET_VERSION_FROZEN" });

      // two drafts hold c (v3 copied from v2): confirming it in one confirms it in both
      await createVersion(db, pool.id, {}, null);
      const cInV3 = (await loopBoard(db, { agentId })).cards.find((x) => x.key === c.sample.key)!;
      expect(cInV3.version).toBe(3);
      const confirmed = await confirmSample(db, cInV3.sampleId, null);
      expect((await getSample(db, c.sample.id)).confirmedAt).toEqual(confirmed.confirmedAt);
      expect((await loopBoard(db, { agentId })).drafts.filter((d) => d.setId === pool.id)).toMatchObject([
        { version: 2, onlineSamples: 3, unconfirmed: 0 },
        { version: 3, onlineSamples: 3, unconfirmed: 0 },
      ]);
      // and taking it back takes it back in both (c was never frozen)
      await unconfirmSample(db, cInV3.sampleId);
      expect((await getSample(db, c.sample.id)).confirmedAt).toBeNull();
      await confirmSample(db, c.sample.id, null);
      expect((await getSample(db, cInV3.sampleId)).confirmedAt).not.toBeNull();

      // b confirmed by a person in the v2 draft; a copy of v1 (where b's row has none) takes that confirmation
      const bConfirmed = await confirmSample(db, bInV2, null);
      const v4 = await createVersion(db, pool.id, { from: 1 }, null);
      const bInV4 = await db.evalSample.findFirstOrThrow({
        where: { setVersionId: v4.id, key: b.sample.key },
        select: { confirmedAt: true },
      });
      expect(bInV4.confirmedAt).toEqual(bConfirmed.confirmedAt);
    },
  );
});
