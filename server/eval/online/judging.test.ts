import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../db/generated/client";
import type { DatabaseTarget } from "../../db/url";
import { publishVersion } from "../../agents/service";
import { startFakeLlmServer, useModelServer, type FakeLlmServer, type FakeRequest } from "../../llm/testing";
import { onOnlineAnswer } from "../../runtime";
import { chat } from "../../runtime/service";
import { EvalQueue } from "../runs/queue";
import { registerEvalQueue } from "../runs/worker";
import { createEvalTestDb, seedAgent } from "../testing";
import { acknowledgeAlert, createAlertRule, evaluateAlerts, listAlerts } from "./alerts";
import { getOnlineJudging, putOnlineJudging } from "./judging";
import { listLeads } from "./leads";
import { REFERENCE_FREE_RUBRIC } from "../suggestions/reference-free";
import { flushOnlineJobs, watchOnlineAnswer } from "./watch";
import { OnlineWorker } from "./worker";

/**
 * Sampled online judging through the services on an in-memory database, with the real `openai` client against a local
 * OpenAI-compatible server this file starts: the agent answers through it, and the LLM judge's reference-free rubric
 * is answered by it (the answer that invents an item fails "invents nothing"; a hedged one is unclear). Online answers
 * go through the runtime's online-answer hook, the buffer and the durable queue to the online worker, as on a server.
 */
let db: PrismaClient;
let target: DatabaseTarget;
let close: () => Promise<void>;
let model: FakeLlmServer;
let queue: EvalQueue;
let worker: OnlineWorker;
let restoreEnv: () => void = () => undefined;
let stopHook: () => void = () => undefined;
const judgePrompts: string[] = [];

const isJudge = (r: FakeRequest) => r.body.messages?.[0]?.content === REFERENCE_FREE_RUBRIC;
function respond(r: FakeRequest): string {
  const user = [...(r.body.messages ?? [])].reverse().find((m) => m.role === "user")?.content ?? "";
  if (!isJudge(r)) {
    if (user.includes("invent")) return "Try our unicorn steak, 99 yuan.";
    if (user.includes("unsure")) return "Maybe something warm.";
    return `A fine answer to: ${user}`;
  }
  judgePrompts.push(user);
  const { answer } = JSON.parse(user) as { answer: string };
  const criteria = answer.includes("unicorn")
    ? { addresses: true, invents_nothing: false }
    : answer.includes("Maybe")
      ? { addresses: null, invents_nothing: true }
      : { addresses: true, invents_nothing: true };
  return JSON.stringify({
    criteria,
    rationale: answer.includes("unicorn") ? "the unicorn steak is not on any menu" : "fine",
  });
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  model = await startFakeLlmServer({ respond });
  restoreEnv = useModelServer(model.url);
  ({ db, target, close } = await createEvalTestDb());
  queue = await EvalQueue.start({ db, target, worker: true, pollMs: 100, log: () => undefined });
  registerEvalQueue(queue);
  worker = await OnlineWorker.start({ db, boss: queue.boss, pollMs: 100, log: () => undefined });
  stopHook = onOnlineAnswer((a) => void watchOnlineAnswer(db, a));
}, 120_000);
afterAll(async () => {
  stopHook();
  await worker?.stop().catch(() => undefined);
  await queue?.stop().catch(() => undefined);
  registerEvalQueue(undefined);
  await close?.();
  await model?.close();
  restoreEnv();
});

async function publishedAgent(name: string) {
  const agent = await seedAgent(db, name);
  await publishVersion(db, agent.id, 1);
  return agent.id;
}

describe("sampled online judging (services, local model server)", () => {
  it("refuses the built-in judge (JUDGE_NEEDS_POINTS), a rate above 1 and an unknown agent", async () => {
    const agentId = await publishedAgent(`refusals-${Date.now()}`);
    await expect(
      putOnlineJudging(db, agentId, { samplingRate: 1, judge: { type: "builtin" } }, null),
    ).rejects.toMatchObject({
      status: 400,
      code: "JUDGE_NEEDS_POINTS",
    });
    await expect(
      putOnlineJudging(db, agentId, { samplingRate: 1.5, judge: { type: "llm" } }, null),
    ).rejects.toMatchObject({
      status: 400,
      code: "REQUEST_INVALID",
    });
    await expect(
      putOnlineJudging(db, "no-such-agent", { samplingRate: 1, judge: { type: "llm" } }, null),
    ).rejects.toMatchObject({
      status: 404,
    });
    expect((await getOnlineJudging(db, agentId)).rule).toBeNull();
  });

  it("the LLM judge's reference-free rubric judges sampled chats in the background: fail and unknown become leads with the rationale; a share rule fires once, then cools down", async () => {
    const agentId = await publishedAgent(`judged-${Date.now()}`);
    const put = await putOnlineJudging(db, agentId, { samplingRate: 1, judge: { type: "llm" } }, null);
    expect(put.rule).toMatchObject({ samplingRate: 1, judge: { type: "llm" }, enabled: true, filters: {} });
    const rule = await createAlertRule(
      db,
      {
        agentId,
        name: "a third judged fail",
        kind: "share",
        lastN: 3,
        percent: 30,
        signal: "judge_fail",
        cooldownMinutes: 60,
      },
      null,
    );
    const answers = [];
    for (const message of ["what is for breakfast?", "invent a dish for me", "I am unsure what I want"])
      answers.push(await chat(db, agentId, { message }, null, { cacheTtlSeconds: 0 }));
    const [fine, invented, unsure] = answers.map((a) => a.traceId) as [string, string, string];
    await new Promise((r) => setTimeout(r, 20)); // the hook runs on the next turn
    await flushOnlineJobs(db);
    await waitFor("three judgments", async () => (await db.onlineJudgment.count({ where: { agentId } })) === 3);
    const verdicts = Object.fromEntries(
      (await db.onlineJudgment.findMany({ where: { agentId } })).map((j) => [j.traceId, j.verdict]),
    );
    expect(verdicts).toEqual({ [fine]: "pass", [invented]: "fail", [unsure]: "unknown" });
    // the judge saw the question and the answer, no expected points; no queries were made, so two criteria
    const prompt = JSON.parse(judgePrompts.find((p) => p.includes("unicorn")) ?? "{}");
    expect(prompt).toMatchObject({ criteria: ["addresses", "invents_nothing"], question: "invent a dish for me" });
    expect(prompt).not.toHaveProperty("expected_points");

    const failed = await listLeads(db, { agentId, signal: "judge_fail" });
    expect(failed.items.map((l) => l.traceId)).toEqual([invented]);
    expect(failed.items[0]).toMatchObject({
      signals: ["judge_fail"],
      judgment: { verdict: "fail", rationale: "the unicorn steak is not on any menu", judgedBy: { type: "llm" } },
    });
    expect((await listLeads(db, { agentId, signal: "judge_unknown" })).items.map((l) => l.traceId)).toEqual([unsure]);
    expect((await listLeads(db, { agentId })).items.map((l) => l.traceId).sort()).toEqual([invented, unsure].sort());
    // each lead recorded once (lead.created's row)
    await waitFor("two lead rows", async () => (await db.onlineLead.count({ where: { agentId } })) === 2);

    // 1 judged fail of the last 3 answers is 33 % > 30 %: fired once, with its figures
    const open = await waitFor("the alert", async () => {
      const a = await listAlerts(db, { agentId, open: true, limit: 20 });
      return a.items.length ? a.items : undefined;
    });
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      ruleId: rule.id,
      figures: { kind: "share", signal: "judge_fail", answers: 3, leads: 1, percent: 33.33, threshold: 30 },
      leadsUrl: `/eval?agent=${agentId}&signal=judge_fail#leads`,
    });
    // within the cool-down it does not fire again, though still crossed
    expect(await evaluateAlerts(db, agentId)).toEqual([]);
    const acked = await acknowledgeAlert(db, open[0]!.id, null);
    expect(acked.acknowledgedAt).not.toBeNull();
    expect((await listAlerts(db, { agentId, open: true, limit: 20 })).items).toHaveLength(0);
    expect((await getOnlineJudging(db, agentId)).last7Days).toEqual({ judged: 3, pass: 1, fail: 1, unknown: 1 });
  });
});
