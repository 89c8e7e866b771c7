/**
 * Evaluation center benchmarks (`npx tsx scripts/bench-eval.ts`; numbers go into the README / report).
 *   1. answering: a 300-question in-platform run answered by a local OpenAI-compatible server that replies after
 *      200 ms, at concurrency 8, through the real queue (pg-boss) and runtime, in process; on the embedded PGlite
 *      and, when reachable, on PostgreSQL. Reported against the ideal ceil(300/8) x 200 ms = 7.6 s.
 *   2. report: GET /api/eval/runs/{id}/report of a 10,000-item run over real HTTP against the production build on
 *      the embedded database (seeded through the REST API: import, pasted answers, bulk adopt), median of 7;
 *      plus the in-process service time. Without a build only the in-process time is measured.
 *   3. many-run comparison: GET /api/eval/runs/compare?run=…(8 runs) of one 1,000-question set version over real
 *      HTTP against the production build on the embedded database (each run's answers differ, so verdicts change
 *      across runs), median of 7: the grid's first page (limit 100, what the page asks) and every question at once.
 *      Target 500 ms (issue 24).
 * The built-in judge is used (EVAL_JUDGE=builtin), so each item costs exactly one 200 ms model call.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DIST_DIR, createPostgresDatabase, postgresReachable, startServer } from "./lib/app-server";
import type { ModelServer } from "../server/eval/testing";

process.env.EVAL_JUDGE = "builtin";

type Bench = { name: string; value: string; note: string };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/** 300 questions, model latency 200 ms, concurrency 8: wall time from start to "awaiting_review". */
export async function benchAnswering(opts: {
  database: "pglite" | "postgresql";
  questions?: number;
  concurrency?: number;
  delayMs?: number;
  model?: ModelServer;
}) {
  const n = opts.questions ?? 300;
  const concurrency = opts.concurrency ?? 8;
  const delayMs = opts.delayMs ?? 200;
  const { startModelServer, createEvalTestDb, seedAgent, seedSet, questions } = await import("../server/eval/testing");
  // the runtime reads OPENAI_BASE_URL once per process: one model server serves every measurement of a process
  const model = opts.model ?? (await startModelServer({ delayMs }));
  model.delayMs = delayMs;
  model.answered.clear();
  model.maxInflight = 0;
  process.env.OPENAI_BASE_URL ??= model.url;
  process.env.OPENAI_API_KEY ??= "sk-bench";
  let dropPg: (() => Promise<void>) | undefined;
  let url: string | undefined;
  if (opts.database === "postgresql") {
    const d = await createPostgresDatabase();
    url = d.url;
    dropPg = d.drop;
  }
  const { db, target, close } = await createEvalTestDb(url);
  const { EvalQueue, registerEvalQueue } = await import("../server/eval/index");
  const { createRun, startRun } = await import("../server/eval/runs/runs");
  const queue = await EvalQueue.start({ db, target, worker: true, concurrency, pollMs: 100, log: () => undefined });
  registerEvalQueue(queue);
  try {
    const agent = await seedAgent(db, "bench agent");
    const { setVersionId } = await seedSet(db, { agentId: agent.id, samples: questions(n), threshold: 1 });
    const run = await createRun(db, { setVersionId, mode: "in_platform", tier: "invoke", concurrency }, null);
    const started = performance.now();
    await startRun(db, run.id);
    for (;;) {
      const r = await db.evalRun.findUniqueOrThrow({ where: { id: run.id }, select: { status: true } });
      if (r.status === "awaiting_review") break;
      await new Promise((res) => setTimeout(res, 25));
    }
    const wallMs = performance.now() - started;
    const idealMs = Math.ceil(n / concurrency) * delayMs;
    const answered = await db.evalRunItem.count({ where: { runId: run.id, status: "answered" } });
    return {
      database: opts.database,
      questions: n,
      concurrency,
      delayMs,
      wallMs: Math.round(wallMs),
      idealMs,
      ratio: wallMs / idealMs,
      answered,
      maxInflight: model.maxInflight,
      modelCalls: [...model.answered.values()].reduce((a, b) => a + b, 0),
    };
  } finally {
    await queue.stop();
    registerEvalQueue(undefined);
    await close();
    if (!opts.model) await model.close();
    await dropPg?.();
  }
}

function reportSeed(n: number) {
  const samples = Array.from({ length: n }, (_, i) => ({
    key: `q${String(i + 1).padStart(5, "0")}`,
    question: `Question ${i + 1}: recommend a breakfast dish and mention the price`,
    expected_points: ["recommends a breakfast dish", "mentions the price"],
    classification: ["breakfast", "lunch", "price", "coupon"][i % 4],
  }));
  const answers = samples.map((s, i) => ({
    key: s.key,
    answer:
      i % 10 === 0
        ? "Sorry, I cannot help."
        : i % 7 === 0
          ? "I recommend something tasty."
          : "I recommend the scallion pancake breakfast dish; the price is 12 yuan.",
    latencyMs: 100 + (i % 900),
  }));
  return { samples, answers };
}

/** GET /api/eval/runs/{id}/report of a 10,000-item run, over HTTP against the production build (embedded database). */
export async function benchReportHttp(n = 10_000, repeats = 7) {
  if (!fs.existsSync(path.join(DIST_DIR, "BUILD_ID"))) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-bench-eval-"));
  const server = await startServer("bench-eval", `pglite:${dir}`, { EVAL_JUDGE: "builtin" });
  const headers = { authorization: `Bearer ${server.adminToken}`, "content-type": "application/json" };
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${server.url}${p}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, any>;
  };
  try {
    const seedStarted = performance.now();
    const { samples, answers } = reportSeed(n);
    const recipe = await call("GET", "/api/builder/recipes/minimal");
    const agent = await call("POST", "/api/builder/agents", { name: "bench", workflow: recipe.workflow });
    const set = await call("POST", "/api/eval/sets", {
      agentId: agent.agent.id,
      name: "10k",
      kind: "golden",
      gateThreshold: Math.floor(n * 0.8),
    });
    await call("POST", `/api/eval/sets/${set.id}/versions/1/import`, {
      format: "jsonl",
      content: samples.map((s) => JSON.stringify(s)).join("\n"),
    });
    const v = await call("POST", `/api/eval/sets/${set.id}/versions/1/freeze`);
    const run = await call("POST", "/api/eval/runs", { setVersionId: v.id, mode: "pasted", tier: "pipeline_live" });
    await call("POST", `/api/eval/runs/${run.id}/answers`, { answers });
    await call("POST", `/api/eval/runs/${run.id}/adopt`, {});
    const seedMs = performance.now() - seedStarted;
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < repeats; i++) {
      const t = performance.now();
      const res = await fetch(`${server.url}/api/eval/runs/${run.shortId}/report`, { headers });
      bytes = (await res.arrayBuffer()).byteLength;
      if (res.status !== 200) throw new Error(`report: ${res.status}`);
      times.push(performance.now() - t);
    }
    return {
      items: n,
      medianMs: Math.round(median(times)),
      minMs: Math.round(Math.min(...times)),
      maxMs: Math.round(Math.max(...times)),
      bytes,
      seedSeconds: Math.round(seedMs / 100) / 10,
    };
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** An eight-run comparison over 1,000 questions (issue 24: 500 ms or less), over HTTP against the production build. */
export async function benchCompareManyHttp(n = 1_000, runs = 8, repeats = 7) {
  if (!fs.existsSync(path.join(DIST_DIR, "BUILD_ID"))) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-bench-compare-"));
  const server = await startServer("bench-compare", `pglite:${dir}`, { EVAL_JUDGE: "builtin" });
  const headers = { authorization: `Bearer ${server.adminToken}`, "content-type": "application/json" };
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${server.url}${p}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, any>;
  };
  try {
    const seedStarted = performance.now();
    const { samples, answers } = reportSeed(n);
    const recipe = await call("GET", "/api/builder/recipes/minimal");
    const agent = await call("POST", "/api/builder/agents", { name: "bench compare", workflow: recipe.workflow });
    const set = await call("POST", "/api/eval/sets", {
      agentId: agent.agent.id,
      name: "1k",
      kind: "golden",
      gateThreshold: Math.floor(n * 0.8),
    });
    await call("POST", `/api/eval/sets/${set.id}/versions/1/import`, {
      format: "jsonl",
      content: samples.map((s) => JSON.stringify(s)).join("\n"),
    });
    const v = await call("POST", `/api/eval/sets/${set.id}/versions/1/freeze`);
    const ids: string[] = [];
    for (let r = 0; r < runs; r++) {
      const run = await call("POST", "/api/eval/runs", { setVersionId: v.id, mode: "pasted", tier: "pipeline_live" });
      // each run answers a different tenth of the questions badly: their verdicts change across the runs
      const mine = answers.map((a, i) => (i % 10 === r ? { ...a, answer: "Sorry, I cannot help." } : a));
      await call("POST", `/api/eval/runs/${run.id}/answers`, { answers: mine });
      await call("POST", `/api/eval/runs/${run.id}/adopt`, {});
      ids.push(run.shortId);
    }
    const seedMs = performance.now() - seedStarted;
    const query = ids.map((id) => `run=${id}`).join("&");
    const measure = async (suffix: string) => {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < repeats; i++) {
        const t = performance.now();
        const res = await fetch(`${server.url}/api/eval/runs/compare?${query}${suffix}`, { headers });
        bytes = (await res.arrayBuffer()).byteLength;
        if (res.status !== 200) throw new Error(`compare: ${res.status}`);
        times.push(performance.now() - t);
      }
      return { medianMs: Math.round(median(times)), maxMs: Math.round(Math.max(...times)), bytes };
    };
    return {
      questions: n,
      runs,
      page: await measure("&limit=100"),
      all: await measure(""),
      seedSeconds: Math.round(seedMs / 100) / 10,
    };
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The report service in process (same database work, no HTTP), seeded directly. */
export async function benchReportInProcess(n = 10_000, repeats = 7) {
  const { createEvalTestDb, seedAgent } = await import("../server/eval/testing");
  const { createSet, freezeVersion, importSamples } = await import("../server/eval/index");
  const { createRun, submitPastedAnswers } = await import("../server/eval/index");
  const { adoptSuggestions } = await import("../server/eval/verdicts/verdicts");
  const { runReport } = await import("../server/eval/reports/reports");
  const { db, close } = await createEvalTestDb();
  try {
    const { samples, answers } = reportSeed(n);
    const agent = await seedAgent(db, "bench");
    const set = await createSet(db, { agentId: agent.id, name: "10k", kind: "golden", gateThreshold: 8000 }, null);
    await importSamples(db, set.id, 1, { format: "jsonl", content: samples.map((s) => JSON.stringify(s)).join("\n") });
    const v = await freezeVersion(db, set.id, 1, null);
    const run = await createRun(db, { setVersionId: v.id, mode: "pasted" }, null);
    await submitPastedAnswers(db, run.id, { answers });
    await adoptSuggestions(db, run.id, null);
    const times: number[] = [];
    for (let i = 0; i < repeats; i++) {
      const t = performance.now();
      JSON.stringify(await runReport(db, run.id));
      times.push(performance.now() - t);
    }
    return { items: n, medianMs: Math.round(median(times)) };
  } finally {
    await close();
  }
}

async function main() {
  const rows: Bench[] = [];
  const { startModelServer } = await import("../server/eval/testing");
  const model = await startModelServer({ delayMs: 200 });
  for (const database of ["pglite", "postgresql"] as const) {
    if (database === "postgresql" && !(await postgresReachable())) {
      rows.push({ name: "answering 300 q @ 8, PostgreSQL", value: "skipped", note: "no PostgreSQL server reachable" });
      continue;
    }
    const r = await benchAnswering({ database, model });
    rows.push({
      name: `answering ${r.questions} q @ ${r.concurrency}, model ${r.delayMs} ms, ${database === "pglite" ? "PGlite" : "PostgreSQL"}`,
      value: `${(r.wallMs / 1000).toFixed(2)} s`,
      note: `ideal ${(r.idealMs / 1000).toFixed(1)} s (ceil(${r.questions}/${r.concurrency}) x ${r.delayMs} ms), x${r.ratio.toFixed(2)}; ${r.answered} answered, ${r.modelCalls} model calls, max ${r.maxInflight} in flight`,
    });
  }
  await model.close();
  const http = await benchReportHttp();
  if (http)
    rows.push({
      name: `GET report, ${http.items} items, HTTP (PGlite)`,
      value: `${http.medianMs} ms`,
      note: `median of 7 (min ${http.minMs}, max ${http.maxMs}), ${Math.round(http.bytes / 1024)} KiB; seeding over REST took ${http.seedSeconds} s`,
    });
  else
    rows.push({ name: "GET report, 10000 items, HTTP", value: "skipped", note: "no production build (NEXT_DIST_DIR)" });
  const many = await benchCompareManyHttp();
  if (many)
    for (const [what, m] of [
      ["first page of 100", many.page],
      ["all questions", many.all],
    ] as const)
      rows.push({
        name: `GET compare, ${many.runs} runs x ${many.questions} q, ${what}, HTTP (PGlite)`,
        value: `${m.medianMs} ms`,
        note: `median of 7 (max ${m.maxMs}), ${Math.round(m.bytes / 1024)} KiB; target 500 ms; seeding over REST took ${many.seedSeconds} s`,
      });
  else rows.push({ name: "GET compare, 8 runs", value: "skipped", note: "no production build (NEXT_DIST_DIR)" });
  const inproc = await benchReportInProcess();
  rows.push({
    name: `report service, ${inproc.items} items, in process (PGlite)`,
    value: `${inproc.medianMs} ms`,
    note: "median of 7, incl. JSON serialisation",
  });

  rows.push({
    name: "machine load during the run",
    value: os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(" "),
    note: `${os.cpus().length} cores (load average 1/5/15 min)`,
  });
  const w = [Math.max(...rows.map((r) => r.name.length)), Math.max(...rows.map((r) => r.value.length))];
  console.log(`| ${"benchmark".padEnd(w[0]!)} | ${"result".padEnd(w[1]!)} | notes |`);
  console.log(`| ${"-".repeat(w[0]!)} | ${"-".repeat(w[1]!)} | --- |`);
  for (const r of rows) console.log(`| ${r.name.padEnd(w[0]!)} | ${r.value.padEnd(w[1]!)} | ${r.note} |`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.dirname, "bench-eval.ts")) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
