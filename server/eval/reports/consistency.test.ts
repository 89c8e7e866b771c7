import { useModelServer } from "../../llm/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../db/generated/client";
import type { DatabaseTarget } from "../../db/url";
import type { Principal } from "../../auth/service";
import { createEvalTestDb, questions, seedAgent, seedSet, startModelServer, type ModelServer } from "../testing";
import { EvalQueue } from "../runs/queue";
import { registerEvalQueue } from "../runs/worker";
import { createRun, getItem, getRun, listItems, runGate, runReport, setVerdict, startRun } from "../index";
import { consistencyOf } from "./consistency";

/**
 * Repeated answers: an in-platform run with repeats 3 answered by the local OpenAI-compatible server, which answers
 * question 1 alternately with and without "pancake" (an icontains assertion makes the suggestion pass or fail) and
 * question 2 always the same. People judge the first answers; the gate counts only those verdicts.
 */
async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const alice: Principal = { kind: "user", userId: "user_alice", email: "alice@example.com", role: "annotator" };

describe("consistencyOf (pure)", () => {
  it("a question is unstable when its answers' suggestions differ; the share is of the compared questions", () => {
    const c = consistencyOf(3, [
      { key: "a", suggestions: ["pass", "fail", "pass"] },
      { key: "b", suggestions: ["pass", "pass", "pass"] },
      { key: "c", suggestions: ["fail", "unknown", "fail"] },
      { key: "d", suggestions: ["fail"] },
    ]);
    expect(c).toEqual({
      repeats: 3,
      compared: 3,
      unstable: [
        { key: "a", suggestions: ["pass", "fail", "pass"], text: "unstable: pass 2 of 3" },
        { key: "c", suggestions: ["fail", "unknown", "fail"], text: "unstable: pass 0 of 3" },
      ],
      unstableShare: 0.6667,
    });
    expect(consistencyOf(1, [])).toEqual({ repeats: 1, compared: 0, unstable: [], unstableShare: null });
  });
});

describe("repeated answers (local model server, PGlite)", () => {
  let db: PrismaClient;
  let target: DatabaseTarget;
  let close: () => Promise<void>;
  let model: ModelServer;
  let agentId: string;
  let queue: EvalQueue;
  const calls = new Map<string, number>();

  let restoreEnv: () => void = () => undefined;
  beforeAll(async () => {
    model = await startModelServer({
      reply: (q) => {
        const n = (calls.get(q) ?? 0) + 1;
        calls.set(q, n);
        const flaky = q.startsWith("Question number 1:");
        return flaky && n % 2 === 0
          ? "I recommend the noodle soup breakfast dish; the price is 9 yuan."
          : "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
      },
    });
    restoreEnv = useModelServer(model.url);
    ({ db, target, close } = await createEvalTestDb());
    agentId = (await seedAgent(db, "Repeats agent")).id;
    queue = await EvalQueue.start({ db, target, worker: true, pollMs: 100, log: () => undefined });
    registerEvalQueue(queue);
  }, 60_000);
  afterAll(async () => {
    await queue.stop().catch(() => undefined);
    registerEvalQueue(undefined);
    await close();
    await model.close();
    restoreEnv();
  });

  it("repeats 1-5 for in-platform runs only (0, 6 and a pasted run with repeats are refused); the run keeps it", async () => {
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(1, { prefix: "v" }), threshold: 1 });
    for (const repeats of [0, 6, 2.5])
      await expect(createRun(db, { setVersionId, mode: "in_platform", repeats }, null)).rejects.toThrow();
    await expect(createRun(db, { setVersionId, mode: "pasted", repeats: 2 }, null)).rejects.toThrow(
      /in-platform runs only/,
    );
    expect((await createRun(db, { setVersionId, mode: "pasted" }, null)).repeats).toBe(1);
    expect((await createRun(db, { setVersionId, mode: "in_platform", repeats: 5 }, null)).repeats).toBe(5);
  });

  it("every answer gets a suggestion; the report lists the unstable questions; the gate counts the judged first answers only", async () => {
    const samples = questions(2).map((s) => ({ ...s, assertions: [{ type: "icontains" as const, value: "pancake" }] }));
    const { setVersionId } = await seedSet(db, { agentId, samples, threshold: 2 });
    const run = await createRun(db, { setVersionId, mode: "in_platform", tier: "invoke", repeats: 3 }, null);
    expect(run.repeats).toBe(3);
    const before = model.log.length;
    await startRun(db, run.id);
    await waitFor("the run to finish answering", async () => (await getRun(db, run.id)).status === "awaiting_review");
    expect(model.log.length - before).toBe(6); // 2 questions x 3 answers

    const items = (await listItems(db, run.id, {})).items;
    expect(items).toHaveLength(2); // one item per question: the other answers belong to it
    const [flaky, steady] = items;
    const detail = await getItem(db, run.id, flaky!.id);
    expect(detail.suggestion?.verdict).toBe("pass");
    expect(detail.otherAnswers.map((o) => [o.number, o.suggestion.verdict])).toEqual([
      [2, "fail"],
      [3, "pass"],
    ]);
    expect(detail.otherAnswers[0]!.answer).toContain("noodle soup");
    // the item's tokens are all its answers' (20 + 10 per call, 3 answers; 3 judge calls)
    expect(detail).toMatchObject({ promptTokens: 60, completionTokens: 30, llmCalls: 3, judgeCalls: 3 });
    expect((await getItem(db, run.id, steady!.id)).otherAnswers.map((o) => o.suggestion.verdict)).toEqual([
      "pass",
      "pass",
    ]);

    const report = await runReport(db, run.id);
    expect(report.consistency).toEqual({
      repeats: 3,
      compared: 2,
      unstable: [{ key: "q001", suggestions: ["pass", "fail", "pass"], text: "unstable: pass 2 of 3" }],
      unstableShare: 0.5,
    });
    expect(report.machine).toMatchObject({ pass: 2, fail: 0 }); // the first answers' suggestions

    // people judge the first answers; the gate counts 2 verdicts, not 6 answers
    await setVerdict(db, run.id, flaky!.id, { verdict: "pass" }, alice);
    await setVerdict(db, run.id, steady!.id, { verdict: "pass" }, alice);
    const gate = await runGate(db, run.id);
    expect(gate.input.questions).toHaveLength(2);
    expect(gate.result).toMatchObject({ passed: true, counts: { questions: 2, judged: 2, pass: 2 } });
  }, 120_000);
});
