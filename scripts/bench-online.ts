/**
 * npm run bench -- online: the online feedback loop.
 *   leads   GET-equivalent listLeads (a page of 20) over 100,000 online chat traces of one agent (2% scored 1-2), on the
 *           embedded database and on the PostgreSQL server when reachable: p50 / p95 of 20 pages (first page and
 *           pages further down by cursor). Target: p50 <= 300 ms per page. Then leadsPerDay over the same traces
 *           (the chart's counts: the last 30 days, every filter change asks for them): p50 / p95 of 5 calls, after a
 *           first call that stores every trace's guardrail signals (its time printed apart).
 *           BENCH_LEADS_TRACES (default 100,000) sets the number of traces (a smoke run: 2000).
 *   shadow  online chat latency through the production path: a started production server (next start, its eval
 *           worker in the process, as deployed) on each database, POST /api/agents/{id}/chat one at a time (offline
 *           provider, every message new so no cache hit), with the intent shadow off and on (sample rate 1, a
 *           condition-node candidate): on, each chat enqueues a pg-boss job of kind shadow that the server's worker
 *           runs while the next chats arrive. Blocks of 50 chats alternate off / on (after an on block the queue is
 *           drained, so off blocks carry no shadow work); p50 on <= 1.05 x p50 off. BENCH_SHADOW_CHATS (default 300
 *           per side) sets the size; a production build is needed (npm run build).
 *   judging the same with sampled online judging at rate 1.0 (a judge agent in the Python sandbox judging every chat
 *           in the background, each a judge_unknown lead) against the rule disabled; p50 on <= 1.05 x p50 off.
 * BENCH_ONLINE_PARTS=leads, =shadow or =judging (or a comma-separated list) runs those.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { conditionDetector, createEvalTestDb } from "../server/eval/testing";
import { leadsPerDay, listLeads } from "../server/eval/online/leads";
import { createAgent } from "../server/agents/service";
import { DIST_DIR, createPostgresDatabase, postgresReachable, startServer } from "./lib/app-server";
import { recordRow } from "./lib/bench-rows";

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const TRACES = Number(process.env.BENCH_LEADS_TRACES ?? 100_000);

async function leadsOn(label: string, url?: string) {
  const { db, close } = await createEvalTestDb(url);
  try {
    const agent = await createAgent(
      db,
      { name: "bench leads", workflow: conditionDetector('start.query.contains("breakfast")') },
      null,
      {},
    );
    const agentId = agent.agent.id;
    const version = agent.version.id;
    const t0 = performance.now();
    await db.$executeRawUnsafe(`
      INSERT INTO "Trace" ("id", "agentId", "workflowVersionId", "source", "mode", "status", "input", "answer", "steps", "startedAt", "finishedAt")
      SELECT 'bt' || g, '${agentId}', '${version}', 'chat', 'pipeline_live', 'succeeded', jsonb_build_object('query', 'question ' || g), 'answer ' || g,
        jsonb_build_array(jsonb_build_object('nodeId', 'start', 'type', 'start', 'status', 'succeeded', 'output', jsonb_build_object('query', 'question ' || g)),
                          jsonb_build_object('nodeId', 'detect', 'type', 'condition', 'status', 'succeeded', 'output', jsonb_build_object('result', false, 'branch', 'false'))),
        now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval
      FROM generate_series(1, ${TRACES}) g`);
    await db.$executeRawUnsafe(`
      INSERT INTO "TraceFeedback" ("id", "traceId", "score", "comment", "createdAt")
      SELECT 'bf' || g, 'bt' || g, 1 + (g % 2), 'bad', now() FROM generate_series(1, ${TRACES}, 50) g`);
    await db.$executeRawUnsafe(`ANALYZE`);
    console.log(
      `  ${label}: ${TRACES.toLocaleString("en-US")} traces + ${Math.ceil(TRACES / 50).toLocaleString("en-US")} low scores inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const times: number[] = [];
    let cursor: string | undefined;
    const pages = Math.min(21, Math.floor(TRACES / 50 / 20)); // every page full
    for (let i = 0; i < pages; i++) {
      const t = performance.now();
      const page = await listLeads(db, { agentId, limit: 20, ...(cursor ? { cursor } : {}) });
      if (i > 0) times.push(performance.now() - t); // the first call warms up
      cursor = page.nextCursor ?? undefined;
      if (page.items.length !== 20) throw new Error(`a page held ${page.items.length} leads`);
    }
    recordRow({
      part: "online",
      name: `leads page of 20, ${label}, p50`,
      value: pct(times, 50),
      unit: "ms",
      better: "lower",
      target: "<= 300 ms",
    });
    console.log(
      `  ${label}: a page of 20 leads: p50 ${pct(times, 50).toFixed(0)} ms, p95 ${pct(times, 95).toFixed(0)} ms (${times.length} pages, scanning ~1,000 traces each)`,
    );
    const counts: number[] = [];
    let total = 0;
    let first = 0;
    for (let i = 0; i < 6; i++) {
      const t = performance.now();
      total = (await leadsPerDay(db, { agentId })).total;
      if (i > 0) counts.push(performance.now() - t);
      else first = performance.now() - t; // the first count stores every trace's guardrail signals
    }
    if (total !== Math.ceil(TRACES / 50))
      throw new Error(`leadsPerDay counted ${total} leads, expected ${Math.ceil(TRACES / 50)}`);
    recordRow({
      part: "online",
      name: `leads per day, 30 days, ${label}, p50`,
      value: pct(counts, 50),
      unit: "ms",
      better: "lower",
      target: "<= 150 ms",
    });
    console.log(
      `  ${label}: leads per day over the last 30 days (${total.toLocaleString("en-US")} leads): p50 ${pct(counts, 50).toFixed(0)} ms, p95 ${pct(counts, 95).toFixed(0)} ms (5 calls, after a first that stored the signals of the ${TRACES.toLocaleString("en-US")} traces in ${first.toFixed(0)} ms)`,
    );
  } finally {
    await close();
  }
}

type Call = (method: string, p: string, body?: unknown) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Chat latency with background work off and on, through a started production server (its eval worker and online
 * worker in the process): blocks of 50 chats alternate off / on, and after an on block the background work is waited
 * for (`done(total on)`), so off blocks carry none. Prints p50 on / p50 off.
 */
const WHAT = { shadow: "the intent shadow", judging: "online judging at rate 1.0" } as const;

async function offOnLatency(
  what: keyof typeof WHAT,
  label: string,
  databaseUrl: string,
  perSide: number,
  setup: (
    call: Call,
  ) => Promise<{ agentId: string; toggle: (on: boolean) => Promise<unknown>; done: (n: number) => Promise<boolean> }>,
) {
  const server = await startServer(`bench-${what}-${label}`, databaseUrl, {
    EVAL_WORKER: "on",
    CHAT_CACHE_TTL_SECONDS: "0",
  });
  try {
    const call: Call = async (method, p, body) => {
      const res = await fetch(`${server.url}${p}`, {
        method,
        headers: { authorization: `Bearer ${server.adminToken}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
      if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      return json;
    };
    const { agentId, toggle, done } = await setup(call);
    let n = 0;
    const chats = async (count: number) => {
      const xs: number[] = [];
      for (let i = 0; i < count; i++) {
        const t = performance.now();
        await call("POST", `/api/agents/${agentId}/chat`, { message: `breakfast or morning ${n++}` });
        xs.push(performance.now() - t);
      }
      return xs;
    };
    let worked = 0;
    const drained = async () => {
      const t0 = performance.now();
      for (;;) {
        if (await done(worked)) return performance.now() - t0;
        if (performance.now() - t0 > 300_000)
          throw new Error(`the background work of ${worked} chats not done in 5 minutes`);
        await new Promise((res) => setTimeout(res, 250));
      }
    };
    await toggle(false);
    await chats(30); // warm-up (JIT, connections, the worker's first poll)
    const off: number[] = [];
    const on: number[] = [];
    const drains: number[] = [];
    const block = 50;
    for (let done = 0; done < perSide; done += block) {
      const size = Math.min(block, perSide - done);
      off.push(...(await chats(size)));
      await toggle(true);
      on.push(...(await chats(size)));
      worked += size;
      // drained before the rule is turned off: a judgment whose rule is disabled by the time its job runs is dropped
      // (judgeOnlineTrace), so turning it off first left the queue's work undone and the wait ran out
      drains.push(await drained());
      await toggle(false);
    }
    const p50off = pct(off, 50);
    const p50on = pct(on, 50);
    recordRow({
      part: "online",
      name: `chat p50 with ${WHAT[what]} on, ${label}`,
      value: p50on,
      unit: "ms",
      better: "lower",
      reference: { name: `chat p50 with ${what === "shadow" ? "the shadow" : "judging"} off, same run`, value: p50off },
      ratio: p50on / p50off,
      target: "<= 1.05x off",
    });
    console.log(
      `  ${label}: chat p50 ${what} off ${p50off.toFixed(2)} ms, on ${p50on.toFixed(2)} ms (x${(p50on / p50off).toFixed(3)}; target <= 1.05); p95 off ${pct(off, 95).toFixed(2)} / on ${pct(on, 95).toFixed(2)} ms; ${worked} chats worked on in the background, done ${pct(drains, 50).toFixed(0)} ms (p50) after a block of ${block}`,
    );
  } finally {
    await server.stop();
  }
}

/** The intent shadow at sample rate 1 (a condition-node candidate), off and on. */
const shadowSetup = async (call: Call) => {
  const agentId = (
    await call("POST", "/api/builder/agents", {
      name: "bench shadow",
      workflow: conditionDetector('start.query.contains("breakfast")'),
    })
  ).agent.id as string;
  await call("POST", `/api/builder/agents/${agentId}/publish`, { version: 1 });
  return {
    agentId,
    toggle: (enabled: boolean) =>
      call("PUT", `/api/eval/shadow/${agentId}`, {
        candidateWorkflow: conditionDetector('start.query.contains("breakfast") || start.query.contains("morning")'),
        liveRef: "{{detect.branch}}",
        candidateRef: "{{detect.branch}}",
        sampleRate: 1,
        enabled,
      }),
    done: async (n: number) => (await call("GET", `/api/eval/shadow/${agentId}/report`)).results >= n,
  };
};

/**
 * Sampled online judging at rate 1.0, off (the rule disabled) and on: every chat is judged in the background by a
 * judge agent in the Python sandbox (the judge_python recipe; online answers have no points, so it says unknown and
 * each answer becomes a judge_unknown lead with its lead.created evaluation, as in production).
 */
const judgingSetup = async (call: Call) => {
  const recipe = await call("GET", "/api/builder/recipes/judge_python");
  const judgeId = (
    await call("POST", "/api/builder/agents", { name: "bench judge", kind: "judge", workflow: recipe.workflow })
  ).agent.id as string;
  const agentId = (
    await call("POST", "/api/builder/agents", {
      name: "bench judged",
      workflow: conditionDetector('start.query.contains("breakfast")'),
    })
  ).agent.id as string;
  await call("POST", `/api/builder/agents/${agentId}/publish`, { version: 1 });
  return {
    agentId,
    toggle: (enabled: boolean) =>
      call("PUT", `/api/eval/online/judging/${agentId}`, {
        samplingRate: 1,
        judge: { type: "agent", agentId: judgeId, version: 1 },
        enabled,
      }),
    done: async (n: number) => (await call("GET", `/api/eval/online/judging/${agentId}`)).last7Days.judged >= n,
  };
};

async function onBothDatabases(what: keyof typeof WHAT, setup: Parameters<typeof offOnLatency>[4]) {
  if (!fs.existsSync(path.join(DIST_DIR, "BUILD_ID"))) throw new Error("run `npm run build` first");
  const perSide = Number(process.env.BENCH_SHADOW_CHATS ?? 300);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `flowbench-bench-${what}-`));
  try {
    await offOnLatency(what, "PGlite", `pglite:${dir}`, perSide, setup);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (await postgresReachable()) {
    const database = await createPostgresDatabase();
    try {
      await offOnLatency(what, "PostgreSQL", database.url, perSide, setup);
    } finally {
      await database.drop();
    }
  } else console.log("  PostgreSQL: not reachable, skipped");
}

const parts = (process.env.BENCH_ONLINE_PARTS ?? "leads,shadow,judging").split(",");
if (parts.includes("leads")) {
  console.log(`leads over ${TRACES.toLocaleString("en-US")} online traces`);
  await leadsOn("PGlite");
  if (await postgresReachable()) {
    const database = await createPostgresDatabase();
    try {
      await leadsOn("PostgreSQL", database.url);
    } finally {
      await database.drop();
    }
  } else console.log("  PostgreSQL: not reachable, skipped");
}
if (parts.includes("shadow")) {
  console.log("intent shadow: chat latency through a started server and its queue worker");
  await onBothDatabases("shadow", shadowSetup);
}
if (parts.includes("judging")) {
  console.log("sampled online judging at rate 1.0: chat latency through a started server and its online worker");
  await onBothDatabases("judging", judgingSetup);
}
process.exit(0);
