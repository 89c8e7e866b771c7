/**
 * npm run bench -- queues: the reserved queue's speed figures (issue 23, "Speed"), over HTTP against a started
 * production server (`next start`, as the README's other HTTP figures), its queue worker off (the runs are pasted and
 * judged by the built-in judge as they are pasted, so nothing works in the background).
 *   next    next item after a verdict with reservations on, on each database: one reviewer works through a run of
 *           BENCH_QUEUE_ITEMS (default 1,100) items one at a time: PUT .../items/{id}/verdict, then POST
 *           /runs/{id}/queue/next (the claim that reserves the next item), BENCH_QUEUE_VERDICTS (default 200) times
 *           after 20 for warm-up. Target: the claim's p50 <= 100 ms. Its reference, measured in the same loop right
 *           before the claim: GET .../items/{id}/neighbours (the read the annotation page uses for the next item left
 *           without reserving it), so the ratio is what reserving costs over reading.
 *   race    1,000 concurrent next-item calls on PostgreSQL: 10 people (each an annotator with an API token an admin
 *           made for them) x 100 POST /runs/{id}/queue/next at the same moment on a run of 1,100 items with one
 *           review per item. Target: all answered in <= 5 s. Asserted (the bench fails otherwise): every call
 *           answers 200 with an item, no item is reserved twice (1,000 distinct items), and the server's progress
 *           counts 100 reservations per person.
 * BENCH_QUEUE_PARTS=next or =race (or both, the default) runs those. Needs a production build (npm run build).
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DIST_DIR, createPostgresDatabase, postgresReachable, startServer, type StartedServer } from "./lib/app-server";
import { loadAverages, recordRow } from "./lib/bench-rows";
import { claimNextItem, createRun, submitPastedAnswers } from "../server/eval/index";
import { createEvalTestDb, questions, seedAgent, seedSet } from "../server/eval/testing";

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ITEMS = Number(process.env.BENCH_QUEUE_ITEMS ?? 1100);
const VERDICTS = Number(process.env.BENCH_QUEUE_VERDICTS ?? 200);
const PEOPLE = 10;
const CALLS = 100;

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Call = (method: string, p: string, body?: unknown, token?: string) => Promise<Json>;
type Next = { item: { id: string; key: string } | null; noneLeft: boolean };

function caller(server: StartedServer): Call {
  return async (method, p, body, token = server.adminToken) => {
    const res = await fetch(`${server.url}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Json;
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
}

/** A pasted run of `n` answered questions, one review per item. */
async function pastedRun(call: Call, n: number, label: string): Promise<string> {
  const recipe = await call("GET", "/api/builder/recipes/minimal");
  const agentId = (
    await call("POST", "/api/builder/agents", { name: `bench queues ${label}`, workflow: recipe.workflow })
  ).agent.id;
  const set = await call("POST", "/api/eval/sets", {
    agentId,
    name: `Queue bench ${label}`,
    kind: "golden",
    gateThreshold: 1,
    reviewsPerItem: 1,
  });
  const keys = Array.from({ length: n }, (_, i) => `k${String(i + 1).padStart(5, "0")}`);
  await call("POST", `/api/eval/sets/${set.id}/versions/1/import`, {
    format: "json",
    content: JSON.stringify(
      keys.map((key) => ({
        key,
        question: `Recommend a breakfast dish and its price (${key})`,
        expected_points: ["recommends a breakfast dish", "mentions the price"],
      })),
    ),
  });
  const version = await call("POST", `/api/eval/sets/${set.id}/versions/1/freeze`, {});
  const run = await call("POST", "/api/eval/runs", { setVersionId: version.id, mode: "pasted" });
  await call("POST", `/api/eval/runs/${run.id}/answers`, {
    answers: keys.map((key) => ({ key, answer: "Try the scallion pancake, 12 yuan." })),
  });
  return run.id as string;
}

async function withServer<T>(label: string, databaseUrl: string, work: (call: Call) => Promise<T>): Promise<T> {
  // BENCH_CPU_PROF_DIR: the server's CPU profile is written there when it stops (where a claim's time goes)
  const profDir = process.env.BENCH_CPU_PROF_DIR;
  const server = await startServer(
    `bench-queues-${label}`,
    databaseUrl,
    { EVAL_WORKER: "off" },
    { nodeArgs: profDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profDir)}`] : [] },
  );
  try {
    return await work(caller(server));
  } finally {
    await server.stop();
  }
}

/** Next item after a verdict: verdict, then the claim (timed), with the read without reserving as the reference. */
async function nextAfterVerdict(label: string, call: Call) {
  const runId = await pastedRun(call, ITEMS, `next ${label}`);
  const claims: number[] = [];
  const reads: number[] = [];
  const verdicts: number[] = [];
  let current = ((await call("POST", `/api/eval/runs/${runId}/queue/next`, {})) as Next).item!;
  const warmUp = 20;
  let differ = 0;
  for (let i = 0; i < warmUp + VERDICTS; i++) {
    let t = performance.now();
    await call("PUT", `/api/eval/runs/${runId}/items/${current.id}/verdict`, { verdict: "pass" });
    const verdictMs = performance.now() - t;
    t = performance.now();
    const read = await call("GET", `/api/eval/runs/${runId}/items/${current.id}/neighbours`);
    const readMs = performance.now() - t;
    t = performance.now();
    const next = (await call("POST", `/api/eval/runs/${runId}/queue/next`, {})) as Next;
    const claimMs = performance.now() - t;
    assert.ok(next.item, `${label}: none left after ${i + 1} verdicts`);
    // the claim reserves the item the page's read names as the next one left (the same queue order)
    if (next.item.id !== read.nextOpen?.id) differ++;
    current = next.item;
    if (i < warmUp) continue;
    claims.push(claimMs);
    reads.push(readMs);
    verdicts.push(verdictMs);
  }
  const p50 = pct(claims, 50);
  const ref = pct(reads, 50);
  recordRow({
    part: "queues",
    name: `next item after a verdict (POST queue/next, reserving), ${label}`,
    value: p50,
    unit: "ms",
    better: "lower",
    reference: { name: "GET items/{id}/neighbours (the next item left, not reserved), same loop", value: ref },
    ratio: p50 / ref,
    target: "p50 <= 100 ms",
  });
  console.log(
    `  ${label}: next item after a verdict, reserving (POST queue/next): p50 ${p50.toFixed(1)} ms, p95 ${pct(claims, 95).toFixed(1)} ms (target p50 <= 100); the same next item read without reserving (neighbours): p50 ${ref.toFixed(1)} ms (x${(p50 / ref).toFixed(2)}); the verdict before it: p50 ${pct(verdicts, 50).toFixed(1)} ms; ${VERDICTS} verdicts on a run of ${ITEMS} items${differ ? `; the claim and the read named different next items ${differ} times` : "; the claim reserved the read's next item every time"}`,
  );
}

/** 10 people x 100 next-item calls at the same moment; no item reserved twice. */
async function race(call: Call) {
  const runId = await pastedRun(call, ITEMS, "race");
  const stamp = Date.now();
  const people: { id: string; token: string }[] = [];
  for (let i = 0; i < PEOPLE; i++) {
    const user = (
      await call("POST", "/api/trpc/admin.users.create", {
        email: `bench-queue-${i}-${stamp}@example.com`,
        name: `Bench reviewer ${i}`,
        password: `bench-queue-password-${i}`,
        role: "annotator",
      })
    ).result.data;
    const token = await call("POST", "/api/admin/tokens", { userId: user.id, name: `bench reviewer ${i}` });
    people.push({ id: user.id, token: token.token });
  }
  // every token once first (its lookup is cached a second per instance), so the race measures claims
  await Promise.all(people.map((p) => call("GET", "/api/eval/meta", undefined, p.token)));
  const started = performance.now();
  const answers = await Promise.all(
    people.flatMap((p) =>
      Array.from({ length: CALLS }, async () => {
        const t = performance.now();
        const r = (await call("POST", `/api/eval/runs/${runId}/queue/next`, {}, p.token)) as Next;
        return { p: p.id, r, ms: performance.now() - t };
      }),
    ),
  );
  const elapsed = performance.now() - started;
  const ids = answers.map((a) => a.r.item?.id);
  const total = PEOPLE * CALLS;
  assert.equal(ids.filter(Boolean).length, total, `every call reserves an item (${ITEMS} items for ${total} calls)`);
  assert.equal(new Set(ids).size, total, "an item was reserved twice");
  const progress = await call("GET", `/api/eval/runs/${runId}/progress`);
  for (const p of people)
    assert.equal(
      progress.people.find((x: { userId: string }) => x.userId === p.id)?.reserved,
      CALLS,
      "the server's count of a person's reservations",
    );
  const latencies = answers.map((a) => a.ms);
  recordRow({
    part: "queues",
    name: `${total} concurrent next-item calls (${PEOPLE} people x ${CALLS}), PostgreSQL`,
    value: elapsed,
    unit: "ms",
    better: "lower",
    target: "<= 5,000 ms, no item reserved twice",
    note: `${total} distinct items; per call p50 ${pct(latencies, 50).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms`,
  });
  console.log(
    `  PostgreSQL: ${total} concurrent next-item calls (${PEOPLE} people x ${CALLS}) answered in ${(elapsed / 1000).toFixed(2)} s (target <= 5 s): ${total} distinct items reserved, none twice; per call p50 ${pct(latencies, 50).toFixed(0)} ms, p95 ${pct(latencies, 95).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms`,
  );
}

/**
 * The same race in process (claimNextItem on the PostgreSQL database, the server's Prisma client and pool, no HTTP):
 * where the time goes, the claims themselves or the requests around them.
 */
async function raceInProcess(url: string) {
  const { db, close } = await createEvalTestDb(url);
  try {
    const agentId = (await seedAgent(db, "bench queues in process")).id;
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(ITEMS), threshold: 100, auditRate: 0 });
    const run = await createRun(db, { setVersionId, mode: "pasted", tier: "invoke" }, null);
    await submitPastedAnswers(db, run.id, {
      answers: questions(ITEMS).map((q) => ({ key: q.key, answer: "Try the scallion pancake, 12 yuan." })),
    });
    await claimNextItem(db, run.id, {}, "warm-up"); // the first statement's planning, the pool's first connection
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: PEOPLE }, (_, p) =>
        Array.from({ length: CALLS }, () => claimNextItem(db, run.id, {}, `person-${p}`)),
      ).flat(),
    );
    const elapsed = performance.now() - started;
    const ids = answers.map((a) => a.item?.id).filter(Boolean);
    const total = PEOPLE * CALLS;
    assert.equal(ids.length, total, "every in-process claim reserves an item");
    assert.equal(new Set(ids).size, total, "an item was reserved twice (in process)");
    recordRow({
      part: "queues",
      name: `${total} concurrent claims in process (${PEOPLE} people x ${CALLS}), PostgreSQL`,
      value: elapsed,
      unit: "ms",
      better: "lower",
      target: "<= 5,000 ms (over HTTP)",
    });
    console.log(
      `  PostgreSQL, in process (claimNextItem, no HTTP): ${total} concurrent claims in ${(elapsed / 1000).toFixed(2)} s, ${total} distinct items`,
    );
  } finally {
    await close();
  }
}

if (!fs.existsSync(path.join(DIST_DIR, "BUILD_ID"))) throw new Error("run `npm run build` first");
const parts = (process.env.BENCH_QUEUE_PARTS ?? "next,race").split(",");
console.log(`load average before: ${loadAverages()} (${os.cpus().length} cores)`);
if (parts.includes("next")) {
  console.log("next item after a verdict, reservations on (over HTTP, production server)");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-bench-queues-"));
  try {
    await withServer("PGlite", `pglite:${dir}`, (call) => nextAfterVerdict("PGlite", call));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const pgParts = parts.filter((p) => p === "next" || p === "race");
if (pgParts.length) {
  if (await postgresReachable()) {
    const database = await createPostgresDatabase({ migrated: true });
    try {
      await withServer("PostgreSQL", database.url, async (call) => {
        if (parts.includes("next")) await nextAfterVerdict("PostgreSQL", call);
        if (parts.includes("race")) {
          console.log("1,000 concurrent next-item calls on PostgreSQL");
          await race(call);
        }
      });
      if (parts.includes("race")) {
        const inProcess = await createPostgresDatabase({ migrated: true });
        try {
          await raceInProcess(inProcess.url);
        } finally {
          await inProcess.drop();
        }
      }
    } finally {
      await database.drop();
    }
  } else console.log("  PostgreSQL: not reachable, skipped");
}
console.log(`load average after: ${loadAverages()}`);
process.exit(0);
