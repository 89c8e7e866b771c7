/**
 * Helpers for the evaluation center's tests and benchmark: an in-memory PGlite with migrations (its target is
 * returned so the queue can share the instance), seed data, and a local OpenAI-compatible model server.
 * Not part of the public API.
 */
import { startFakeLlmServer, type FakeLlmServer, type FakeRequest } from "../llm/testing";
import { createTestDb } from "../db/test-db";
import type { Db } from "../db/client";
import { createAgent } from "../agents/service";
import { addSample, importSamples } from "./sets/samples";
import { createSet, freezeVersion } from "./sets/sets";
import type { SampleInputT } from "./sets/schemas";

/** A migrated test database (in-memory PGlite, or the empty PostgreSQL database at `url`); see `createTestDb`. */
export function createEvalTestDb(url?: string): ReturnType<typeof createTestDb> {
  return createTestDb(url, "eval");
}

/**
 * A finished online answer (a chat trace that succeeded at pipeline_live) of the agent's `versionId` to `question`,
 * as the chat stores one; `data` adds or replaces fields (steps, payload, startedAt...). Returns its id.
 */
export async function onlineTrace(
  db: Db,
  agentId: string,
  versionId: string,
  question: string,
  data: Record<string, unknown> = {},
): Promise<string> {
  const trace = await db.trace.create({
    data: {
      agentId,
      workflowVersionId: versionId,
      source: "chat",
      mode: "pipeline_live",
      status: "succeeded",
      input: { query: question },
      answer: `an answer to ${question}`,
      ...data,
    },
  });
  return trace.id;
}

/** start -> llm -> end; the llm answers the question (through the configured or the offline provider). */
export function llmWorkflow() {
  return {
    nodes: [
      {
        id: "start",
        type: "start",
        config: { outputs: [{ name: "query", type: "string", required: true, default: "" }] },
        position: { x: 0, y: 0 },
      },
      {
        id: "llm_1",
        type: "llm",
        config: { systemPrompt: "You are a helpful assistant.", userPrompt: "{{start.query}}" },
        position: { x: 250, y: 0 },
      },
      { id: "end", type: "end", config: { output: "{{llm_1.result}}" }, position: { x: 500, y: 0 } },
    ],
    edges: [
      { source: "start", target: "llm_1" },
      { source: "llm_1", target: "end" },
    ],
  };
}

export async function seedAgent(db: Db, name = "Eval agent", workflow: unknown = llmWorkflow()) {
  const { agent } = await createAgent(db, { name, workflow }, null, {});
  return agent;
}

export function questions(n: number, opts: { scripted?: number; prefix?: string } = {}): SampleInputT[] {
  return Array.from({ length: n }, (_, i) => ({
    key: `${opts.prefix ?? "q"}${String(i + 1).padStart(3, "0")}`,
    question: `Question number ${i + 1}: recommend a breakfast dish and mention the price`,
    expectedPoints: ["recommends a breakfast dish", "mentions the price"],
    classification: i % 2 ? "breakfast" : "price",
    script:
      i < (opts.scripted ?? 0)
        ? [
            { role: "system" as const, content: "The user is vegetarian.", preset: true },
            { role: "user" as const, content: `First turn of question ${i + 1}`, preset: false },
            { role: "user" as const, content: `Second turn of question ${i + 1}`, preset: false },
          ]
        : null,
    assertions: null,
    sourceTraceId: null,
  }));
}

/** A set with one version holding `samples`, frozen unless `freeze: false`. */
export async function seedSet(
  db: Db,
  opts: {
    agentId: string;
    kind?: "golden" | "regression_pool";
    threshold?: number;
    samples: SampleInputT[];
    freeze?: boolean;
    name?: string;
    /** the set's audit of adopted passes (default: the server's, 0.1); 0 for tests about something else */
    auditRate?: number;
  },
) {
  const set = await createSet(
    db,
    {
      agentId: opts.agentId,
      name: opts.name ?? "Golden",
      kind: opts.kind ?? "golden",
      gateThreshold: opts.threshold ?? 26,
      ...(opts.auditRate !== undefined ? { auditRate: opts.auditRate } : {}),
    },
    null,
  );
  if (opts.samples.length > 50) {
    await importSamples(db, set.id, 1, { format: "json", content: JSON.stringify(opts.samples), mode: "append" });
  } else for (const s of opts.samples) await addSample(db, set.id, 1, s);
  const version = opts.freeze === false ? null : await freezeVersion(db, set.id, 1, null);
  const v = await db.evalSetVersion.findUniqueOrThrow({
    where: { setId_version: { setId: set.id, version: 1 } },
    select: { id: true },
  });
  return { set, setVersionId: v.id, version };
}

// ---------------------------------------------------------------- a local OpenAI-compatible server

export type ModelServer = FakeLlmServer & {
  /** answer requests by their last user message (counted when delivered), judge requests counted apart */
  answered: Map<string, number>;
  judgeRequests: number;
  /** every answer request's messages, in arrival order */
  log: Array<Array<{ role: string; content: string }>>;
};

/**
 * The shared local OpenAI-compatible server (server/llm/testing.ts) answering like a model under evaluation:
 * `reply(lastUserMessage)` (default: a breakfast recommendation with a price), or, for the LLM judge's rubric
 * prompt, a JSON verdict covering every point.
 */
export async function startModelServer(
  opts: { delayMs?: number; reply?: (question: string) => string } = {},
): Promise<ModelServer> {
  const reply =
    opts.reply ?? ((q: string) => `For "${q}" I recommend the scallion pancake breakfast dish; the price is 12 yuan.`);
  const messagesOf = (r: FakeRequest) => r.body.messages ?? [];
  const isJudge = (r: FakeRequest) =>
    messagesOf(r).some((m) => m.role === "system" && m.content.includes("strict evaluator"));
  const lastUser = (r: FakeRequest) => [...messagesOf(r)].reverse().find((m) => m.role === "user")?.content ?? "";
  // Callbacks fire only for requests, i.e. after `model` is assigned below.
  let model!: ModelServer;
  const server = await startFakeLlmServer({
    delayMs: opts.delayMs,
    usage: () => ({ prompt: 20, completion: 10 }), // fixed, so reports' token totals are exact
    onRequest: (r) => {
      if (isJudge(r)) model.judgeRequests++;
      else model.log.push(messagesOf(r));
    },
    respond: (r) => {
      if (!isJudge(r)) return reply(lastUser(r));
      let points: unknown[] = [];
      try {
        points = (JSON.parse(lastUser(r)) as { expected_points?: unknown[] }).expected_points ?? [];
      } catch {
        /* no points */
      }
      return JSON.stringify({
        points: points.map((_, index) => ({ index, covered: true, evidence: "stated" })),
        rationale: "all points covered",
      });
    },
    onAnswer: (r) => {
      if (!isJudge(r)) model.answered.set(lastUser(r), (model.answered.get(lastUser(r)) ?? 0) + 1);
    },
  });
  // One live object: tests read and reset the counters (and delayMs) on it while requests arrive.
  model = Object.assign(server, {
    answered: new Map<string, number>(),
    judgeRequests: 0,
    log: [] as ModelServer["log"],
  });
  return model;
}

/**
 * What a model answers to the judge_llm_rubric recipe's prompt (server/workflow/recipes.ts): each expected point is
 * covered when the answer contains the point's last word ("mentions the price" -> "price"), else missing; the JSON
 * the rubric asks for. Null for any other prompt.
 */
export function rubricJudgeReply(messages: ReadonlyArray<{ role: string; content: string }>): string | null {
  if (!messages.some((m) => m.role === "system" && m.content.startsWith("You judge an AI assistant's answer")))
    return null;
  const user = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const points = JSON.parse(/Expected points \(JSON\):\n(.*)\n\nAnswer:/s.exec(user)?.[1] ?? "[]") as string[];
  const answer = (/\n\nAnswer:\n(.*)$/s.exec(user)?.[1] ?? "").toLowerCase();
  const statuses = points.map((point) => ({
    point,
    status: answer.includes(point.split(/\s+/).at(-1)!.toLowerCase()) ? "covered" : "missing",
  }));
  const missing = statuses.filter((p) => p.status === "missing").map((p) => p.point);
  return JSON.stringify({
    verdict: missing.length ? "fail" : "pass",
    rationale: missing.length ? `missing: ${missing.join(", ")}` : "every point is covered",
    points: statuses,
  });
}

/** An agent whose "intent" is a condition node's branch (intent-shadow tests and the benchmark). */
export function conditionDetector(expression: string) {
  const n = (id: string, type: string, config: Record<string, unknown>, x: number) => ({
    id,
    type,
    config,
    position: { x, y: 0 },
  });
  return {
    nodes: [
      n("start", "start", { outputs: [{ name: "query", type: "string", required: true, default: "" }] }, 0),
      n("detect", "condition", { expression }, 200),
      n("yes", "llm", { userPrompt: "Breakfast: {{start.query}}" }, 400),
      n("no", "llm", { userPrompt: "Other: {{start.query}}" }, 400),
      n("end", "end", { output: "{{yes.result}}{{no.result}}" }, 600),
    ],
    edges: [
      { source: "start", target: "detect" },
      { source: "detect", target: "yes", condition: "true" },
      { source: "detect", target: "no", condition: "false" },
      { source: "yes", target: "end" },
      { source: "no", target: "end" },
    ],
  };
}
