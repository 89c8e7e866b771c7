import { useModelServer } from "../../llm/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../db/generated/client";
import type { Principal } from "../../auth/service";
import { addVersion } from "../../agents/service";
import { createEvalTestDb, questions, seedAgent, seedSet, startModelServer, type ModelServer } from "../testing";
import { answerItem, loadRunContext } from "../runs/answer-item";
import {
  createBadCase,
  createRun,
  getBadCase,
  listItems,
  setVerdict,
  startRun,
  submitPastedAnswers,
  updateBadCase,
} from "../index";
import { llmWorkflow } from "../testing";

/**
 * What verifies a Bad Case (issue 28, item 6): a human pass on its question in a later run of its set answered IN THE
 * PLATFORM by a NEWER agent version than the one it was found with; or a manager's reason, recorded. A pasted pass, or
 * a platform run of the same version, never does. Platform runs are answered by the real runtime against a local
 * OpenAI-compatible server, item by item as the worker does (answerItem), without the queue.
 */
const annotator: Principal = { kind: "user", userId: "user_ann", email: "ann@example.com", role: "annotator" };
const builder: Principal = { kind: "user", userId: "user_bob", email: "bob@example.com", role: "builder" };
const viewer: Principal = { kind: "user", userId: "user_vic", email: "vic@example.com", role: "viewer" };
const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const noQueue = { enqueue: async () => undefined, cancelItems: async () => undefined, abortRun: () => undefined };

describe("verifying a Bad Case: a platform run of a newer version with a human pass, or a manager's reason", () => {
  let db: PrismaClient;
  let close: () => Promise<void>;
  let model: ModelServer;
  let agentId: string;
  let setVersionId: string;

  let restoreEnv: () => void = () => undefined;
  beforeAll(async () => {
    model = await startModelServer();
    restoreEnv = useModelServer(model.url);
    ({ db, close } = await createEvalTestDb());
    agentId = (await seedAgent(db)).id;
    ({ setVersionId } = await seedSet(db, { agentId, samples: questions(1) }));
  }, 60_000);
  afterAll(async () => {
    await close();
    await model.close();
    restoreEnv();
  });

  /** A Bad Case found in a pasted run of agent version `version`: q001 answered badly and failed by a person. */
  async function badCaseAt(version: number) {
    const run = await createRun(db, { setVersionId, mode: "pasted", agentVersion: version }, null);
    await submitPastedAnswers(db, run.id, { answers: [{ key: "q001", answer: "Hello there." }] });
    const [item] = (await listItems(db, run.id, {})).items;
    await setVerdict(db, run.id, item!.id, { verdict: "fail", basis: "no dish", attribution: "generation" }, annotator);
    return (await createBadCase(db, run.id, item!.id, {}, annotator)).badCase;
  }

  /** A later run of the set: pasted (GOOD pasted) or in the platform (answered by the runtime); q001 passed by a person. */
  async function passedIn(mode: "pasted" | "in_platform", version: number) {
    const run = await createRun(db, { setVersionId, mode, agentVersion: version }, null);
    if (mode === "pasted") await submitPastedAnswers(db, run.id, { answers: [{ key: "q001", answer: GOOD }] });
    else {
      await startRun(db, run.id, { queue: noQueue });
      for (const i of (await listItems(db, run.id, {})).items)
        await answerItem(db, { runId: run.id, itemId: i.id }, (id) => loadRunContext(db, id), {
          signal: new AbortController().signal,
          alive: () => true,
        });
    }
    const [item] = (await listItems(db, run.id, {})).items;
    expect(item!.status).toBe("answered");
    await setVerdict(db, run.id, item!.id, { verdict: "pass" }, annotator);
    return run;
  }

  const verify = (id: string, who: Principal, reason?: string) =>
    updateBadCase(db, id, { status: "verified", ...(reason !== undefined ? { reason } : {}) }, who);

  it("a pasted pass never verifies, on the same version or a newer one; the refusal says what is missing", async () => {
    const bc = await badCaseAt(1);
    expect(bc.foundInVersion).toBe(1);
    const pasted = await passedIn("pasted", 1);
    const refused = await verify(bc.id, annotator).catch((e) => e);
    expect(refused).toMatchObject({ status: 409, code: "BAD_CASE_NOT_VERIFIED" });
    expect(refused.message).toContain("needs a platform run of a newer agent version than v1");
    expect(refused.message).toContain(`the pass in ${pasted.shortId} does not count: its answers were pasted`);
    expect(refused.message).toContain("or a reason");
    expect(refused.details).toEqual([
      { key: "q001", foundInVersion: 1, latestPass: { runShortId: pasted.shortId, mode: "pasted", agentVersion: 1 } },
    ]);
    // a newer version, but pasted: still nothing the agent answered
    await addVersion(db, agentId, { workflow: llmWorkflow(), note: "the fix" }, null, {});
    await passedIn("pasted", 2);
    await expect(verify(bc.id, annotator)).rejects.toMatchObject({ status: 409, code: "BAD_CASE_NOT_VERIFIED" });
    const detail = await getBadCase(db, bc.id);
    expect(detail).toMatchObject({ status: "open", verifiedRunId: null, verifiableBy: null });
    expect(detail.latestRun).toMatchObject({
      runMode: "pasted",
      agentVersion: 2,
      verdict: "pass",
      notEvidence: "pasted",
    });
  });

  it("a platform run of the version it was found with does not verify; one of a newer version with a human pass does", async () => {
    const bc = await badCaseAt(2);
    expect(bc.foundInVersion).toBe(2);
    const same = await passedIn("in_platform", 2);
    const refused = await verify(bc.id, annotator).catch((e) => e);
    expect(refused).toMatchObject({ status: 409, code: "BAD_CASE_NOT_VERIFIED" });
    expect(refused.message).toContain(`the pass in ${same.shortId} does not count: it ran v2, not a newer version`);
    expect((await getBadCase(db, bc.id)).latestRun).toMatchObject({
      runShortId: same.shortId,
      runMode: "in_platform",
      agentVersion: 2,
      notEvidence: "not_newer",
    });

    await addVersion(db, agentId, { workflow: llmWorkflow(), note: "the real fix" }, null, {});
    const fixed = await passedIn("in_platform", 3);
    const before = await getBadCase(db, bc.id);
    expect(before.verifiableBy).toMatchObject({
      runId: fixed.id,
      runMode: "in_platform",
      agentVersion: 3,
      notEvidence: null,
      verdict: "pass",
      verdictSource: "human",
    });
    // the one permission of status changes (eval.annotate) verifies with evidence
    const verified = await verify(bc.id, annotator);
    expect(verified).toMatchObject({ status: "verified", verifiedRunId: fixed.id, verifiedReason: null });
    expect((await getBadCase(db, bc.id)).history.at(-1)).toMatchObject({
      kind: "status",
      toStatus: "verified",
      runId: fixed.id,
      runShortId: fixed.shortId,
      reason: null,
      byId: annotator.userId,
    });
  });

  it("a manager's reason verifies without a qualifying run, recorded with who and when; others get 403", async () => {
    const bc = await badCaseAt(3);
    await expect(verify(bc.id, annotator, "checked by hand on staging")).rejects.toMatchObject({
      status: 403,
      code: "FORBIDDEN",
    });
    await expect(verify(bc.id, viewer, "checked by hand on staging")).rejects.toMatchObject({ status: 403 });
    await expect(updateBadCase(db, bc.id, { status: "verified", reason: "no one" }, null)).rejects.toMatchObject({
      status: 403,
    });
    // a reason only goes with verified; a blank one is no reason
    await expect(updateBadCase(db, bc.id, { status: "fixing", reason: "why not" }, builder)).rejects.toMatchObject({
      status: 400,
      code: "REQUEST_INVALID",
    });
    await expect(verify(bc.id, builder, "   ")).rejects.toMatchObject({ status: 400, code: "REQUEST_INVALID" });
    expect((await getBadCase(db, bc.id)).status).toBe("open");

    const t0 = Date.now();
    const verified = await verify(bc.id, builder, "  the data source was fixed upstream; no agent change needed ");
    expect(verified).toMatchObject({
      status: "verified",
      verifiedRunId: null,
      verifiedReason: "the data source was fixed upstream; no agent change needed",
    });
    const detail = await getBadCase(db, bc.id);
    const event = detail.history.at(-1)!;
    expect(event).toMatchObject({
      kind: "status",
      fromStatus: "open",
      toStatus: "verified",
      runId: null,
      reason: "the data source was fixed upstream; no agent change needed",
      byId: builder.userId,
    });
    expect(new Date(event.at).getTime()).toBeGreaterThanOrEqual(t0 - 1000);

    // leaving verified drops what it rested on (the history keeps it); verifying again needs evidence or a reason again
    const reopened = await updateBadCase(db, bc.id, { status: "open" }, annotator);
    expect(reopened).toMatchObject({ status: "open", verifiedRunId: null, verifiedReason: null });
    expect((await getBadCase(db, bc.id)).history.map((h) => h.reason)).toEqual([
      null,
      "the data source was fixed upstream; no agent change needed",
      null,
    ]);
    await expect(verify(bc.id, annotator)).rejects.toMatchObject({ code: "BAD_CASE_NOT_VERIFIED" });
  });
});
