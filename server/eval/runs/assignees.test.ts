import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../db/generated/client";
import { createEvalTestDb, questions, seedAgent, seedSet } from "../testing";
import { assignItems, createRun, getAssignment } from "../index";

/** What the run page's assignment dialog reads: the stored split and whom it may name (embedded database). */
describe("a run's assignment as read for the page", () => {
  let db: PrismaClient;
  let close: () => Promise<void>;
  let runId: string;

  beforeAll(async () => {
    ({ db, close } = await createEvalTestDb());
    const agentId = (await seedAgent(db)).id;
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(6), threshold: 100, auditRate: 0 });
    runId = (await createRun(db, { setVersionId, mode: "pasted", tier: "invoke" }, null)).id;
    const users = [
      { id: "ann", role: "annotator", name: "Ann" },
      { id: "bo", role: "builder", name: "Bo" },
      { id: "vi", role: "viewer", name: "Vi" },
      { id: "gone", role: "annotator", name: "Gone", disabledAt: new Date() },
      { id: "nameless", role: "annotator", name: null },
    ] as const;
    for (const u of users) await db.user.create({ data: { ...u, email: `${u.id}@example.com`, passwordHash: "x" } });
  }, 120_000);
  afterAll(async () => close());

  it("candidates: enabled users whose role may review; none assigned before a split", async () => {
    const a = await getAssignment(db, runId);
    expect(a).toMatchObject({ runId, userIds: [], seed: null, at: null });
    const ids = a.candidates.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(["ann", "bo", "nameless"]));
    expect(ids).not.toContain("vi");
    expect(ids).not.toContain("gone");
    expect(a.candidates.find((c) => c.id === "nameless")).toEqual({
      id: "nameless",
      name: null,
      email: "nameless@example.com",
      role: "annotator",
    });
  });

  it("the stored split after assigning, and none after removing it", async () => {
    await assignItems(db, runId, { userIds: ["ann", "bo"], seed: 5 }, null);
    expect(await getAssignment(db, runId)).toMatchObject({ userIds: ["ann", "bo"], seed: 5, at: expect.any(String) });
    await assignItems(db, runId, { userIds: [] }, null);
    expect(await getAssignment(db, runId)).toMatchObject({ userIds: [], seed: null, at: expect.any(String) });
  });
});
