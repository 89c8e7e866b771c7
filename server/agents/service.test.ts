import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../db/test-db";
import type { PrismaClient } from "../db/generated/client";
import { getRecipe } from "../workflow";
import { addVersion, createAgent, getVersion, listVersions } from "./service";

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
    await expect(addVersion(db, agent.id, { workflow: broken }, null, {})).rejects.toMatchObject({ status: 400, code: "WORKFLOW_INVALID" });
    expect(await listVersions(db, agent.id)).toHaveLength(1);
    const v2 = await addVersion(db, agent.id, { workflow: minimal(), note: "again" }, null, {});
    expect(v2.version.version).toBe(2);
    expect((await getVersion(db, agent.id, 2)).note).toBe("again");
  });

  it("the database itself refuses to change a stored version", async () => {
    const { agent } = await createAgent(db, { name: "B", workflow: minimal() }, null, {});
    await expect(db.workflowVersion.updateMany({ where: { agentId: agent.id }, data: { note: "tampered" } })).rejects.toThrow(/immutable/);
    expect((await getVersion(db, agent.id, 1)).note).toBe("");
  });

  it("refuses an unknown agent with 404", async () => {
    await expect(addVersion(db, "missing", { workflow: minimal() }, null, {})).rejects.toMatchObject({ status: 404 });
  });
});
