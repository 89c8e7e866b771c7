import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PrismaClient } from "../../db/generated/client";
import { createEvalTestDb, questions, seedAgent, seedSet } from "../testing";
import {
  addSample,
  createRun,
  createSet,
  createVersion,
  deleteSet,
  exportVersion,
  freezeVersion,
  getSet,
  importSamples,
  listSamples,
  updateSample,
  updateVersion,
} from "../index";

describe("evaluation services: sets, versions and samples (embedded database)", () => {
  let db: PrismaClient;
  let close: () => Promise<void>;
  let agentId: string;
  beforeAll(async () => {
    ({ db, close } = await createEvalTestDb());
    agentId = (await seedAgent(db)).id;
  }, 60_000);
  afterAll(async () => close());

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
