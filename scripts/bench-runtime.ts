/**
 * Workflow runtime speed: `npx tsx scripts/bench-runtime.ts` prints a table.
 *   1. engine overhead per node, in process on an in-memory PGlite: a 100-node linear workflow (start, 98 llm
 *      nodes, end) with the offline provider; the time spent inside the provider is subtracted, and so is the fixed
 *      cost of a run (the two trace writes, measured with a start -> end workflow). Target: < 0.2 ms per node.
 *   2. chat endpoint throughput against the production build (embedded database) with a local OpenAI-compatible
 *      server that answers after a fixed 200 ms: distinct questions (every request runs) and one repeated question
 *      (cache hits), on the embedded database and on PostgreSQL (BENCH_CHAT_DATABASES=embedded,postgresql, the
 *      default; issue 27's targets: >= 0.6x and >= 0.8x the ideal concurrency / 200 ms). Needs a build (`npm run
 *      build`, or NEXT_DIST_DIR=... for a separate folder). BENCH_RUNTIME_PARTS=engine or =chat runs one part;
 *      BENCH_CPU_PROF_DIR=DIR writes each chat server's CPU profile to DIR.
 * Code-node numbers come from scripts/bench-sandbox.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createTestDb } from "../server/db/test-db";
import { createOfflineProvider } from "../server/llm";
import { startFakeLlmServer } from "../server/llm/testing";
import type { LlmProvider } from "../server/llm/types";
import { runWorkflow } from "../server/runtime/executor";
import { HTTP_LIMITS, defaultResolver } from "../server/runtime/http/client";
import type { RuntimeDeps } from "../server/runtime/nodes/context";
import { WorkflowSchema, type Workflow } from "../server/workflow";
import { linearChain } from "../server/workflow/testing";
import { DIST_DIR, adminPost, createPostgresDatabase, postgresReachable, startServer } from "./lib/app-server";
import { recordRow } from "./lib/bench-rows";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export type EngineBenchResult = {
  nodes: number;
  runs: number;
  /** Per node, LLM time and the fixed per-run cost excluded. */
  overheadPerNodeP50Ms: number;
  overheadPerNodeMeanMs: number;
  /** Per run: the start -> end workflow, i.e. trace create + update and bookkeeping. */
  fixedPerRunP50Ms: number;
  /** Whole 100-node run, wall clock, for reference. */
  runP50Ms: number;
  llmP50Ms: number;
};

export async function benchEngineOverhead(
  opts: { nodes?: number; runs?: number; warmup?: number } = {},
): Promise<EngineBenchResult> {
  const nodes = opts.nodes ?? 100;
  const runs = opts.runs ?? 60;
  const warmup = opts.warmup ?? 15;
  const { db, close } = await createTestDb();
  try {
    const offline = createOfflineProvider();
    let llmMs = 0;
    const timed: LlmProvider = {
      ...offline,
      chat: async (req) => {
        const t = performance.now();
        try {
          return await offline.chat(req);
        } finally {
          llmMs += performance.now() - t;
        }
      },
    };
    const deps: RuntimeDeps = {
      llm: timed,
      http: { policy: { rules: [], resolver: defaultResolver, ...HTTP_LIMITS } },
      sandbox: async () => Promise.reject(new Error("no code nodes here")),
    };
    const chain: Workflow = WorkflowSchema.parse(linearChain(nodes));
    const tiny: Workflow = WorkflowSchema.parse(linearChain(2));
    const input = { query: "What should I cook for dinner tonight?", sessionId: "bench" };
    const once = async (workflow: Workflow) => {
      llmMs = 0;
      const t = performance.now();
      const res = await runWorkflow(db, { workflow, input, mode: "pipeline", source: "api" }, deps);
      if (res.status !== "succeeded") throw new Error(`bench run failed: ${JSON.stringify(res.error)}`);
      return { total: performance.now() - t, llm: llmMs };
    };
    for (let i = 0; i < warmup; i++) {
      await once(chain);
      await once(tiny);
    }
    const fixed: number[] = [];
    const totals: number[] = [];
    const llms: number[] = [];
    const perNode: number[] = [];
    for (let i = 0; i < runs; i++) {
      const f = (await once(tiny)).total;
      const r = await once(chain);
      fixed.push(f);
      totals.push(r.total);
      llms.push(r.llm);
      perNode.push((r.total - r.llm - f) / nodes);
    }
    const sort = (a: number[]) => [...a].sort((x, y) => x - y);
    return {
      nodes,
      runs,
      overheadPerNodeP50Ms: percentile(sort(perNode), 50),
      overheadPerNodeMeanMs: perNode.reduce((a, b) => a + b, 0) / perNode.length,
      fixedPerRunP50Ms: percentile(sort(fixed), 50),
      runP50Ms: percentile(sort(totals), 50),
      llmP50Ms: percentile(sort(llms), 50),
    };
  } finally {
    await close();
  }
}

export type ChatBenchResult = {
  label: string;
  requests: number;
  concurrency: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
};

/**
 * Chat throughput on one database: `embedded` (PGlite in a temporary folder) or `postgresql` (a migrated throw-away
 * database on the local server). BENCH_CPU_PROF_DIR: the server's CPU profile is written there when it stops.
 */
export async function benchChatThroughput(
  opts: { requests?: number; concurrency?: number; llmDelayMs?: number; database?: "embedded" | "postgresql" } = {},
): Promise<ChatBenchResult[]> {
  const total = opts.requests ?? 400;
  const concurrency = opts.concurrency ?? 32;
  if (!fs.existsSync(path.join(DIST_DIR, "BUILD_ID")))
    throw new Error(`no production build in ${DIST_DIR}: run \`npm run build\` first`);
  const llm = await startFakeLlmServer({ delayMs: opts.llmDelayMs ?? 200 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-bench-runtime-"));
  const pgDatabase = opts.database === "postgresql" ? await createPostgresDatabase({ migrated: true }) : undefined;
  const profDir = process.env.BENCH_CPU_PROF_DIR;
  const server = await startServer(
    `bench-runtime-${opts.database ?? "embedded"}`,
    pgDatabase?.url ?? `pglite:${dir}`,
    { OPENAI_BASE_URL: llm.url, OPENAI_MODEL: "bench-model" },
    { nodeArgs: profDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profDir)}`] : [] },
  );
  try {
    const post = adminPost(server);
    const workflow = WorkflowSchema.parse(linearChain(3)); // start -> llm_1 -> end
    const created = (await post("/api/builder/agents", { name: "bench", workflow })) as { agent: { id: string } };
    const id = created.agent.id;
    await post(`/api/builder/agents/${id}/publish`, { version: 1 });

    const measure = async (
      label: string,
      message: (i: number) => string,
      workers = concurrency,
      count = total,
    ): Promise<ChatBenchResult> => {
      let next = 0;
      const latencies: number[] = [];
      const started = performance.now();
      await Promise.all(
        Array.from({ length: workers }, async () => {
          while (next < count) {
            const i = next++;
            const t = performance.now();
            await post(`/api/agents/${id}/chat`, { message: message(i) });
            latencies.push(performance.now() - t);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      return {
        label,
        requests: count,
        concurrency: workers,
        rps: count / seconds,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
      };
    };
    for (let i = 0; i < 20; i++) await post(`/api/agents/${id}/chat`, { message: `warm-up ${i}` });
    const single = await measure(
      "distinct questions, one at a time (model 200 ms)",
      (i) => `single ${i} ${Date.now()}`,
      1,
      40,
    );
    const distinct = await measure("distinct questions (model 200 ms)", (i) => `question number ${i} ${Date.now()}`);
    await post(`/api/agents/${id}/chat`, { message: "the same question" });
    const repeated = await measure("repeated question (cache hit)", () => "The  same QUESTION");
    return [single, distinct, repeated];
  } finally {
    await server.stop();
    await llm.close();
    await pgDatabase?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(`machine: ${os.cpus().length} cores, node ${process.version}\n`);
  // BENCH_RUNTIME_PARTS: engine, chat (default both)
  const parts = (process.env.BENCH_RUNTIME_PARTS ?? "engine,chat").split(",");
  if (parts.includes("engine")) {
    const e = await benchEngineOverhead();
    console.log(
      `engine overhead, ${e.nodes}-node linear workflow, offline provider, in-memory PGlite (${e.runs} runs):`,
    );
    console.log(
      "| per node p50 ms | per node mean ms | fixed per run p50 ms | whole run p50 ms | in provider p50 ms |",
    );
    console.log("| ---: | ---: | ---: | ---: | ---: |");
    console.log(
      `| ${e.overheadPerNodeP50Ms.toFixed(3)} | ${e.overheadPerNodeMeanMs.toFixed(3)} | ${e.fixedPerRunP50Ms.toFixed(2)} | ${e.runP50Ms.toFixed(2)} | ${e.llmP50Ms.toFixed(2)} |`,
    );
    console.log(`target < 0.2 ms per node: ${e.overheadPerNodeP50Ms < 0.2 ? "met" : "NOT met"}\n`);
    recordRow({
      part: "runtime",
      name: "engine overhead per node, p50",
      value: e.overheadPerNodeP50Ms,
      unit: "ms",
      better: "lower",
      target: "< 0.2 ms",
    });
  }
  if (!parts.includes("chat")) return;
  // BENCH_CHAT_DATABASES: which databases the chat part runs on (default both; PostgreSQL when reachable)
  const databases = (process.env.BENCH_CHAT_DATABASES ?? "embedded,postgresql").split(",") as Array<
    "embedded" | "postgresql"
  >;
  for (const database of databases) {
    if (database === "postgresql" && !(await postgresReachable())) {
      console.log("chat on PostgreSQL: not reachable, skipped");
      continue;
    }
    const label = database === "postgresql" ? "PostgreSQL" : "embedded database";
    console.log(`POST /api/agents/{id}/chat, production build, ${label}, local OpenAI-compatible server:`);
    console.log(
      "| case | requests | concurrency | req/s | x ideal | p50 ms | p99 ms |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const r of await benchChatThroughput({ database })) {
      // the model answers after 200 ms, so `concurrency` questions in flight can at best give concurrency / 0.2 s
      const ideal = r.label.startsWith("distinct") ? r.concurrency / 0.2 : undefined;
      console.log(
        `| ${r.label} | ${r.requests} | ${r.concurrency} | ${r.rps.toFixed(0)} | ${ideal ? (r.rps / ideal).toFixed(2) : ""} | ${r.p50Ms.toFixed(1)} | ${r.p99Ms.toFixed(1)} |`,
      );
      recordRow({
        part: "runtime",
        name: `chat, ${r.label}, @ ${r.concurrency}, req/s, ${label}`,
        value: r.rps,
        unit: "req/s",
        better: "higher",
        ...(ideal ? { reference: { name: "ideal, concurrency / 200 ms", value: ideal }, ratio: r.rps / ideal } : {}),
        target:
          ideal && r.concurrency > 1 ? (database === "postgresql" ? ">= 0.8x ideal" : ">= 0.6x ideal") : undefined,
      });
    }
    console.log("");
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
