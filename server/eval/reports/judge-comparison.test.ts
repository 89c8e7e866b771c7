import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../db/generated/client";
import type { Principal } from "../../auth/service";
import { addVersion, createAgent, deleteAgent } from "../../agents/service";
import { ApiError } from "../../core/errors";
import { startFakeLlmServer, useModelServer, type FakeLlmServer } from "../../llm/testing";
import { RECIPES } from "../../workflow";
import { JUDGE_RUBRIC_PROMPT } from "../../workflow/recipes";
import type { EvalJob, RunQueue } from "../runs/queue-jobs";
import type { Tier } from "../runs/schemas";
import { createEvalTestDb, questions, rubricJudgeReply, seedAgent, seedSet } from "../testing";
import {
  comparisonItemDone,
  createRun,
  getJob,
  getSet,
  listItems,
  setVerdict,
  submitPastedAnswers,
  updateSetJudged,
} from "../index";
import { judgeStoredItem } from "../suggestions/judging";
import { resolveJudge } from "../suggestions/judge-agent";
import { calibrationItems } from "./set-calibration";

/**
 * The judge comparison job (issue 22) on the embedded database: a switch to a judge without suggestions on the set's
 * human-typed items answers the job; its judge jobs (taken from a recording queue and judged here as the worker judges
 * them, through the real runtime against a local OpenAI-compatible server) count once each, and the last decides the
 * switch like the PATCH: switched, refused with the JUDGE_AGREEMENT_DROP figures, or switched by force with the
 * request's reason. Also: suggestions stored before judges were recorded (no judgedBy) are keyed by their `judge`, and
 * a judge agent in use by a set cannot be deleted. The queue and the worker over HTTP: tests/integration/judges.test.ts.
 *
 * The data is tests/integration/judges.test.ts's calibration plan; reference kappas (python3 statsmodels 0.15.0,
 * cohens_kappa on the 2x2 tables, judge first): built-in [[11, 6], [1, 6]] -> 0.4167; rubric [[10, 2], [2, 10]] -> 0.6667;
 * the lenient judge below (every answer passes, the guardrails fail the refusals) has the built-in table.
 */
const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const MIXED = "I recommend the scallion pancake breakfast dish, 12元.";
const BAD = "Sorry, I cannot help with that.";
type Human = "pass" | "fail";
const PLAN: Array<[string, Human]> = [
  ...Array.from({ length: 10 }, () => [GOOD, "pass"] as [string, Human]),
  ...Array.from({ length: 2 }, () => [GOOD, "fail"] as [string, Human]),
  ...Array.from({ length: 4 }, () => [MIXED, "fail"] as [string, Human]),
  [MIXED, "pass"],
  ...Array.from({ length: 6 }, () => [BAD, "fail"] as [string, Human]),
  [BAD, "pass"],
];
const LENIENT = "You judge leniently.";
const alice: Principal = { kind: "user", userId: "user_alice", email: "alice@example.com", role: "admin" };

class RecordingQueue implements RunQueue {
  jobs: EvalJob[] = [];
  async enqueue(items: EvalJob[]) {
    this.jobs.push(...items);
  }
  async cancelItems() {}
  abortRun() {}
}

describe("the judge comparison job (embedded database, local model server)", () => {
  let db: PrismaClient;
  let close: () => Promise<void>;
  let model: FakeLlmServer;
  let restoreEnv: () => void = () => undefined;
  let setId = "";
  let runId = "";
  let run: { tier: Tier; setAssertions: null };

  beforeAll(async () => {
    model = await startFakeLlmServer({
      usage: () => ({ prompt: 30, completion: 12 }),
      respond: (r) => {
        const messages = r.body.messages ?? [];
        if (messages.some((m) => m.role === "system" && m.content.startsWith(LENIENT)))
          return JSON.stringify({ verdict: "pass", rationale: "fine", points: [] });
        return rubricJudgeReply(messages) ?? "not a judge prompt";
      },
    });
    restoreEnv = useModelServer(model.url);
    ({ db, close } = await createEvalTestDb());
    const agentId = (await seedAgent(db)).id;
    const seeded = await seedSet(db, { agentId, samples: questions(PLAN.length), threshold: 1 });
    setId = seeded.set.id;
    await updateSetJudged(db, setId, { judge: { type: "builtin" } }, alice);
    const created = await createRun(db, { setVersionId: seeded.setVersionId, mode: "pasted" }, null);
    runId = created.id;
    run = { tier: created.tier, setAssertions: null };
    await submitPastedAnswers(db, runId, {
      answers: PLAN.map(([answer], i) => ({ key: `q${String(i + 1).padStart(3, "0")}`, answer })),
    });
    const items = (await listItems(db, runId, { limit: 200 })).items;
    for (const [i, item] of items.entries()) {
      const human = PLAN[i]![1];
      await setVerdict(
        db,
        runId,
        item.id,
        human === "pass" ? { verdict: "pass" } : { verdict: "fail", basis: "not it", attribution: "generation" },
        alice,
      );
    }
  }, 120_000);
  afterAll(async () => {
    await close();
    await model.close();
    restoreEnv();
  });

  /** What the worker does with a comparison's judge jobs (server/eval/runs/queue.ts processJudge), here in order. */
  async function work(queue: RecordingQueue, opts: { twice?: boolean } = {}) {
    for (const job of queue.jobs.splice(0)) {
      const judge = job.judge ? await resolveJudge(db, job.judge) : undefined;
      await judgeStoredItem(db, job.itemId, run, undefined, { judge, as: job.judge ? "other" : "own" });
      await comparisonItemDone(db, job.compare!, job.itemId);
      if (opts.twice) await comparisonItemDone(db, job.compare!, job.itemId); // a retried job counts once
    }
  }

  /**
   * The judge_llm_rubric recipe with the model's JSON as the answer itself (start -> llm -> end, no code node: the
   * sandbox's start-up per judging would make this file slow); `systemPrompt` replaces the rubric.
   */
  function modelJudge(systemPrompt = JUDGE_RUBRIC_PROMPT) {
    const recipe = structuredClone(RECIPES.judge_llm_rubric.workflow) as {
      nodes: Array<{ id: string; config: Record<string, unknown> }>;
    };
    recipe.nodes.find((n) => n.id === "rubric")!.config.systemPrompt = systemPrompt;
    recipe.nodes.find((n) => n.id === "end")!.config.output = "{{rubric.result}}";
    return {
      nodes: recipe.nodes.filter((n) => n.id !== "parse"),
      edges: [
        { source: "start", target: "rubric" },
        { source: "rubric", target: "end" },
      ],
    };
  }

  async function judgeAgent(name: string) {
    const { agent } = await createAgent(db, { name, kind: "judge", workflow: modelJudge() }, null, {});
    return agent.id as string;
  }

  it("suggestions stored before judges were recorded are keyed by their judge name", async () => {
    const [a, b, c] = (await listItems(db, runId, { limit: 3 })).items;
    const stored = await db.evalRunItem.findUniqueOrThrow({ where: { id: a!.id }, select: { suggestion: true } });
    const legacy = (judge: string) => {
      const { judgedBy: _dropped, ...rest } = stored.suggestion as Record<string, unknown>;
      return { ...rest, judge };
    };
    await db.evalRunItem.update({ where: { id: a!.id }, data: { suggestion: legacy("builtin-coverage") } });
    await db.evalRunItem.update({ where: { id: b!.id }, data: { suggestion: legacy("llm:openai-compatible") } });
    await db.evalRunItem.update({ where: { id: c!.id }, data: { suggestion: legacy("agent:abc@2") } });
    const byId = new Map((await calibrationItems(db, setId)).items.map((i) => [i.itemId, i.suggestions]));
    expect(byId.get(a!.id)).toEqual({ builtin: "pass" });
    expect(byId.get(b!.id)).toEqual({ llm: "pass" });
    expect(byId.get(c!.id)).toEqual({ "agent:abc@2": "pass" });
    // an unknown judge name is no judge's suggestion
    await db.evalRunItem.update({ where: { id: c!.id }, data: { suggestion: legacy("someone-else") } });
    expect((await calibrationItems(db, setId)).items.find((i) => i.itemId === c!.id)?.suggestions).toEqual({});
    for (const item of [a!, b!, c!])
      await db.evalRunItem.update({ where: { id: item.id }, data: { suggestion: stored.suggestion! } });
  });

  it("a candidate without suggestions there: the job judges the items, counts each once, then switches", async () => {
    const rubricId = await judgeAgent("Rubric judge");
    const rubric = { type: "agent" as const, agentId: rubricId, version: 1 };
    const queue = new RecordingQueue();
    const answer = await updateSetJudged(db, setId, { judge: rubric, name: "Renamed set" }, alice, { queue });
    expect(answer).toMatchObject({
      job: { kind: "judge_comparison", setId, status: "running", progress: { done: 0, total: 24 } },
    });
    const jobId = (answer as { job: { id: string } }).job.id;
    expect(queue.jobs).toHaveLength(24);
    expect(queue.jobs[0]).toMatchObject({ kind: "judge", runId, compare: jobId, judge: rubric });
    // the request's other fields are written at once; the judge waits for the job
    expect(await getSet(db, setId)).toMatchObject({ name: "Renamed set", judge: { type: "builtin" } });
    // the same candidate again: the running job, no new judge jobs
    expect(await updateSetJudged(db, setId, { judge: rubric }, alice, { queue: new RecordingQueue() })).toMatchObject({
      job: { id: jobId },
    });

    const last = queue.jobs.pop()!;
    await work(queue, { twice: true });
    expect(await getJob(db, jobId)).toMatchObject({ status: "running", progress: { done: 23, total: 24 } });
    queue.jobs.push(last);
    await work(queue);
    const done = await getJob(db, jobId);
    expect(done).toMatchObject({
      status: "succeeded",
      progress: { done: 24, total: 24 },
      request: { judge: rubric, force: false, reason: null },
      result: {
        switched: true,
        refusal: null,
        figures: {
          current: { key: "builtin", n: 24, kappa: 0.4167, failRecall: 0.5 },
          candidate: { key: `agent:${rubricId}@1`, n: 24, kappa: 0.6667, failRecall: 0.8333 },
          enough: true,
          drops: [],
        },
      },
      error: null,
    });
    expect(done.finishedAt).not.toBeNull();
    const set = await getSet(db, setId);
    expect(set.judge).toEqual(rubric);
    expect(set.judgeHistory[0]).toMatchObject({
      before: { type: "builtin" },
      after: rubric,
      byId: "user_alice",
      forced: false,
    });
    // the model judged each item once (the retried count did not judge again)
    expect(model.requests.filter((r) => r.body.messages?.[0]?.content === JUDGE_RUBRIC_PROMPT)).toHaveLength(24);

    // a judge agent a set uses cannot be deleted: 409 JUDGE_IN_USE naming the set
    const refused = await deleteAgent(db, rubricId).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      status: 409,
      code: "JUDGE_IN_USE",
      details: [{ path: `/sets/${setId}`, message: "Renamed set", code: "judge_of_set" }],
    });
  }, 120_000);

  it("a worse candidate: the job records the refusal; forced with a reason in the request, it switches", async () => {
    const current = (await getSet(db, setId)).judge!;
    const queue = new RecordingQueue();
    // the LLM judge on a model that does not answer its rubric
    const llm = await updateSetJudged(db, setId, { judge: { type: "llm" } }, alice, { queue });
    const llmJob = (llm as { job: { id: string } }).job.id;
    await work(queue);
    const refused = await getJob(db, llmJob);
    expect(refused).toMatchObject({
      status: "succeeded",
      result: {
        switched: false,
        figures: { candidate: { key: "llm" }, drops: expect.arrayContaining(["kappa"]) },
        refusal: { code: "JUDGE_AGREEMENT_DROP", message: expect.stringContaining("force: true") },
      },
    });
    expect(refused.result!.refusal!.details[0]).toEqual(refused.result!.figures);
    expect((await getSet(db, setId)).judge).toEqual(current);

    // a lenient judge (passes everything): refused without force, so the request forces it with a reason
    const agentId = current.type === "agent" ? current.agentId : "";
    await addVersion(db, agentId, { workflow: modelJudge(`${LENIENT} ${JUDGE_RUBRIC_PROMPT}`) }, null, {});
    const candidate = { type: "agent" as const, agentId, version: 2 };
    // a superseded comparison: a decided request ends it
    const first = await updateSetJudged(db, setId, { judge: candidate }, alice, { queue: new RecordingQueue() });
    await updateSetJudged(db, setId, { judge: current, name: "Set again" }, alice);
    expect(await getJob(db, (first as { job: { id: string } }).job.id)).toMatchObject({
      status: "failed",
      error: { code: "JUDGE_COMPARISON_SUPERSEDED" },
    });
    const forced = await updateSetJudged(
      db,
      setId,
      { judge: candidate, force: true, reason: "we want fewer false alarms" },
      alice,
      { queue },
    );
    await work(queue);
    const job = await getJob(db, (forced as { job: { id: string } }).job.id);
    expect(job).toMatchObject({
      status: "succeeded",
      request: { force: true, reason: "we want fewer false alarms" },
      // it passes every answer, and the guardrails still fail the refusals: the built-in judge's table, kappa 0.4167
      result: {
        switched: true,
        refusal: null,
        figures: { candidate: { kappa: 0.4167 }, drops: ["kappa", "failRecall"] },
      },
    });
    const set = await getSet(db, setId);
    expect(set.judge).toEqual(candidate);
    expect(set.judgeHistory[0]).toMatchObject({ after: candidate, forced: true, reason: "we want fewer false alarms" });
  }, 120_000);
});
