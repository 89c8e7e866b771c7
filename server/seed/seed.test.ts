import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../db/test-db";
import type { Db } from "../db/client";
import { listSamples } from "../eval/sets/samples";
import { getSet } from "../eval/sets/sets";
import { checkWaveCSize } from "../eval/reports/wave-c";
import { seedSampleAgent } from ".";

describe("seeding the sample agent", () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await createTestDb());
  }, 60_000);
  afterAll(async () => close());

  it("creates the published agent and a frozen golden set that passes check_eval_wave_c_size, once", async () => {
    const lines: string[] = [];
    const seeded = await seedSampleAgent(db, (l) => lines.push(l));
    expect(seeded).not.toBeNull();
    const agent = await db.agent.findUniqueOrThrow({ where: { id: seeded!.agentId } });
    expect(agent.publishedVersion).toBe(1);
    const set = await getSet(db, seeded!.setId);
    expect(set).toMatchObject({ kind: "golden", gateThreshold: 26 });
    const samples = await listSamples(db, seeded!.setId, 1);
    expect(samples.version.status).toBe("frozen");
    const check = checkWaveCSize({
      setName: set.name,
      setKind: set.kind,
      version: 1,
      status: samples.version.status,
      gateThreshold: set.gateThreshold,
      samples: samples.items,
    });
    expect(check.passed, check.problems.join("; ")).toBe(true);
    expect(await seedSampleAgent(db, () => undefined)).toBeNull();
    expect(await db.agent.count({ where: { name: agent.name } })).toBe(1);
  });
});
