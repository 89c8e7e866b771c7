/**
 * Helpers for the evaluation center's tests and benchmark: an in-memory PGlite with migrations (its target is
 * returned so the queue can share the instance), seed data, and a local OpenAI-compatible model server.
 * Not part of the public API.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { PrismaClient } from "../db/generated/client";
import { appAdapterFactory, closePglite } from "../db/adapters";
import { deployMigrations } from "../db/migrate";
import { parseDatabaseUrl, type DatabaseTarget } from "../db/url";
import type { Db } from "../db/client";
import { createAgent } from "../agents/service";
import { addSample, createSet, freezeVersion, importSamples } from "./sets";
import type { SampleInputT } from "./schemas";

export async function createEvalTestDb(url?: string): Promise<{ db: PrismaClient; target: DatabaseTarget; close: () => Promise<void> }> {
  const target = parseDatabaseUrl(url ?? `pglite:memory://eval-${crypto.randomUUID()}`);
  await deployMigrations(target);
  const db = new PrismaClient({ adapter: await appAdapterFactory(target) });
  return {
    db,
    target,
    close: async () => {
      await db.$disconnect();
      if (target.kind === "pglite") await closePglite(target.dataDir);
    },
  };
}

/** start -> llm -> end; the llm answers the question (through the configured or the offline provider). */
export function llmWorkflow() {
  return {
    nodes: [
      { id: "start", type: "start", config: { outputs: [{ name: "query", type: "string", required: true, default: "" }] }, position: { x: 0, y: 0 } },
      { id: "llm_1", type: "llm", config: { systemPrompt: "You are a helpful assistant.", userPrompt: "{{start.query}}" }, position: { x: 250, y: 0 } },
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
  opts: { agentId: string; kind?: "golden" | "regression_pool"; threshold?: number; samples: SampleInputT[]; freeze?: boolean; name?: string },
) {
  const set = await createSet(db, { agentId: opts.agentId, name: opts.name ?? "Golden", kind: opts.kind ?? "golden", gateThreshold: opts.threshold ?? 26 }, null);
  if (opts.samples.length > 50) {
    await importSamples(db, set.id, 1, { format: "json", content: JSON.stringify(opts.samples), mode: "append" });
  } else for (const s of opts.samples) await addSample(db, set.id, 1, s);
  const version = opts.freeze === false ? null : await freezeVersion(db, set.id, 1, null);
  const v = await db.evalSetVersion.findUniqueOrThrow({ where: { setId_version: { setId: set.id, version: 1 } }, select: { id: true } });
  return { set, setVersionId: v.id, version };
}

// ---------------------------------------------------------------- a local OpenAI-compatible server

export type ModelServer = {
  /** OPENAI_BASE_URL (ends with /v1) */
  url: string;
  /** answer requests by their last user message, judge requests counted apart */
  answered: Map<string, number>;
  judgeRequests: number;
  /** requests whose client went away before the answer (aborted) */
  aborted: number;
  inflight: number;
  maxInflight: number;
  /** every answer request's messages, in arrival order */
  log: Array<Array<{ role: string; content: string }>>;
  delayMs: number;
  close(): Promise<void>;
};

/**
 * POST /v1/chat/completions. Answers after `delayMs` with `reply(lastUserMessage)` (default: a breakfast
 * recommendation with a price), or, for the LLM judge's rubric prompt, with a JSON verdict covering every point.
 */
export async function startModelServer(opts: { delayMs?: number; reply?: (question: string) => string } = {}): Promise<ModelServer> {
  const state: ModelServer = { url: "", answered: new Map(), judgeRequests: 0, aborted: 0, inflight: 0, maxInflight: 0, log: [], delayMs: opts.delayMs ?? 0, close: async () => undefined };
  const reply = opts.reply ?? ((q: string) => `For "${q}" I recommend the scallion pancake breakfast dish; the price is 12 yuan.`);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      let body: { messages?: Array<{ role: string; content: string }>; model?: string } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof body;
      } catch {
        /* empty body */
      }
      const messages = body.messages ?? [];
      const judge = messages.some((m) => m.role === "system" && m.content.includes("strict evaluator"));
      const lastUser = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
      let text: string;
      if (judge) {
        state.judgeRequests++;
        let points: unknown[] = [];
        try {
          points = (JSON.parse(lastUser) as { expected_points?: unknown[] }).expected_points ?? [];
        } catch {
          /* no points */
        }
        text = JSON.stringify({ points: points.map((_, index) => ({ index, covered: true, evidence: "stated" })), rationale: "all points covered" });
      } else {
        text = reply(lastUser);
        state.log.push(messages);
      }
      state.inflight++;
      if (!judge) state.maxInflight = Math.max(state.maxInflight, state.inflight);
      let done = false;
      res.on("close", () => {
        if (!done) {
          state.aborted++;
          state.inflight--;
        }
      });
      setTimeout(() => {
        if (res.destroyed) return;
        done = true;
        state.inflight--;
        if (!judge) state.answered.set(lastUser, (state.answered.get(lastUser) ?? 0) + 1);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
            object: "chat.completion",
            created: Math.floor(Date.now() / 1000),
            model: body.model ?? "local-model",
            choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
            usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
          }),
        );
      }, state.delayMs);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
