import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../db/test-db";
import type { PrismaClient } from "../db/generated/client";
import { getRecipe } from "../workflow";
import { addVersion, createAgent, deleteAgent, getVersion, listAgents, listVersions } from "./service";

const minimal = () => structuredClone(getRecipe("minimal")!.workflow);

describe("agents and versions (embedded database)", () => {
  let db: PrismaClient;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await createTestDb());
  }, 60_000);
  afterAll(async () => close());

  it("stores numbered versions and refuses invalid workflows without storing anything", async () => {
    const { agent, version } = await createAgent(db, { name: "A", workflow: minimal() }, null, {});
    expect(version.version).toBe(1);
    const broken = minimal();
    (broken.nodes[1]!.config as Record<string, unknown>) = {};
    await expect(addVersion(db, agent.id, { workflow: broken }, null, {})).rejects.toMatchObject({
      status: 400,
      code: "WORKFLOW_INVALID",
    });
    expect(await listVersions(db, agent.id)).toHaveLength(1);
    const v2 = await addVersion(db, agent.id, { workflow: minimal(), note: "again" }, null, {});
    expect(v2.version.version).toBe(2);
    expect((await getVersion(db, agent.id, 2)).note).toBe("again");
  });

  it("the database itself refuses to change a stored version", async () => {
    const { agent } = await createAgent(db, { name: "B", workflow: minimal() }, null, {});
    await expect(
      db.workflowVersion.updateMany({ where: { agentId: agent.id }, data: { note: "tampered" } }),
    ).rejects.toThrow(/immutable/);
    expect((await getVersion(db, agent.id, 1)).note).toBe("");
  });

  it("deleting an agent with a frozen set is 409 AGENT_HAS_FROZEN_SETS, also when the set is frozen between the check and the delete", async () => {
    const frozenSet = async (agentId: string, name: string) => {
      const set = await db.evalSet.create({ data: { agentId, name, kind: "golden", gateThreshold: 1 } });
      await db.evalSetVersion.create({ data: { setId: set.id, version: 1, status: "frozen", frozenAt: new Date() } });
      return set;
    };
    const { agent } = await createAgent(db, { name: "C", workflow: minimal() }, null, {});
    const set = await frozenSet(agent.id, "gold");
    await expect(deleteAgent(db, agent.id)).rejects.toMatchObject({
      status: 409,
      code: "AGENT_HAS_FROZEN_SETS",
      details: [{ path: `/sets/${set.id}`, message: "gold", code: "frozen_set" }],
    });

    // the race: the check runs before the freeze (it sees no frozen set), the delete after it: the database's
    // trigger refuses the cascade, and that refusal is the same 409 (it was a 500)
    const { agent: racing } = await createAgent(db, { name: "D", workflow: minimal() }, null, {});
    const raced = await frozenSet(racing.id, "frozen meanwhile");
    let checks = 0;
    const evalSet = new Proxy(db.evalSet, {
      get: (target, prop) =>
        prop === "findMany"
          ? (...args: Parameters<typeof target.findMany>) =>
              checks++ === 0 ? Promise.resolve([]) : target.findMany(...args)
          : (target as unknown as Record<string | symbol, unknown>)[prop],
    });
    const dbBeforeFreeze = new Proxy(db, {
      get: (target, prop) =>
        prop === "evalSet" ? evalSet : (target as unknown as Record<string | symbol, unknown>)[prop],
    });
    await expect(deleteAgent(dbBeforeFreeze, racing.id)).rejects.toMatchObject({
      status: 409,
      code: "AGENT_HAS_FROZEN_SETS",
      details: [{ path: `/sets/${raced.id}` }],
    });
    expect(checks).toBe(3); // the frozen sets, the sets it judges (JUDGE_IN_USE), the frozen sets after the trigger
    expect(await db.agent.findUnique({ where: { id: racing.id } })).not.toBeNull();

    // without frozen sets the agent goes, with its drafts
    const { agent: plain } = await createAgent(db, { name: "E", workflow: minimal() }, null, {});
    await db.evalSet.create({
      data: {
        agentId: plain.id,
        name: "draft only",
        kind: "golden",
        gateThreshold: 1,
        versions: { create: { version: 1 } },
      },
    });
    await deleteAgent(db, plain.id);
    expect(await db.agent.findUnique({ where: { id: plain.id } })).toBeNull();
    await expect(deleteAgent(db, plain.id)).rejects.toMatchObject({ status: 404 });
  });

  it("lists agents in the evaluation center's order: with evaluation sets first (newest set first), then by name; in keyset pages", async () => {
    const make = async (name: string) => (await createAgent(db, { name, workflow: minimal() }, null, {})).agent.id;
    const [zed, bee, cee, ace] = [
      await make("ord-zed"),
      await make("ord-bee"),
      await make("ord-cee"),
      await make("ord-ace"),
    ];
    await db.evalSet.create({
      data: {
        agentId: bee,
        name: "older set",
        kind: "golden",
        gateThreshold: 1,
        createdAt: new Date("2026-01-01T00:00:00Z"),
      },
    });
    await db.evalSet.create({
      data: {
        agentId: cee,
        name: "newer set",
        kind: "golden",
        gateThreshold: 1,
        createdAt: new Date("2026-02-01T00:00:00Z"),
      },
    });
    await db.evalSet.create({
      data: {
        agentId: bee,
        name: "oldest set",
        kind: "golden",
        gateThreshold: 1,
        createdAt: new Date("2025-01-01T00:00:00Z"),
      },
    });
    const expected = [cee, bee, ace, zed];
    expect((await listAgents(db, { q: "ORD-", order: "evaluation" })).items.map((a) => a.id)).toEqual(expected);
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listAgents(db, { q: "ord-", order: "evaluation", limit: 1, ...(cursor ? { cursor } : {}) });
      paged.push(...page.items.map((a) => a.id));
      expect(page.items[0]).toMatchObject({
        name: expect.stringMatching(/^ord-/),
        latestSummary: { nodeCount: expect.any(Number) },
      });
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(expected);
    // the default order is unchanged: the last changed first
    expect((await listAgents(db, { q: "ord-" })).items.map((a) => a.id)).toEqual([ace, cee, bee, zed]);
  });

  it("refuses an unknown agent with 404", async () => {
    await expect(addVersion(db, "missing", { workflow: minimal() }, null, {})).rejects.toMatchObject({ status: 404 });
  });
});
