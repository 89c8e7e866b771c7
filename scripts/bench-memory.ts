/**
 * `npm run bench -- memory` (issue 27's last row): the server's resident memory over 10,000 chats in a row. A started
 * production server on each database (the embedded one in the server's own process, so its pages count; PostgreSQL
 * when reachable), an llm agent published and chatted with one message at a time, each message new (no answer cache
 * hit), the local model answering at once. RSS is read from /proc (the server's process and every process it started)
 * after a full garbage collection (SIGUSR2 to a server started with --expose-gc and `lib/gc-on-signal.cjs`) and a
 * quiet second: at start (idle), after a warm-up of 1,000 chats, then every 2,000 chats; beside it the V8 heap in use
 * after that collection (what is alive). Growth is the last reading over the one after warm-up (target: at most 10 %,
 * no leak).
 *   BENCH_MEMORY_CHATS  chats after the warm-up (default 10,000)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startFakeLlmServer } from "../server/llm/testing";
import { WorkflowSchema } from "../server/workflow";
import { linearChain } from "../server/workflow/testing";
import { DIST_DIR, adminPost, createPostgresDatabase, postgresReachable, startServer } from "./lib/app-server";
import { loadAverages, recordRow } from "./lib/bench-rows";

const CHATS = Number(process.env.BENCH_MEMORY_CHATS ?? 10_000);
const WARM_UP = 1_000;
const EVERY = 2_000;

/** Resident memory of a process and its descendants, in MiB (VmRSS from /proc). */
function rssMiB(pid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* gone */
    }
  }
  let kib = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"));
      kib += Number(m?.[1] ?? 0);
    } catch {
      /* gone */
    }
    stack.push(...(children.get(p) ?? []));
  }
  return kib / 1024;
}

/** A full collection in the server (lib/gc-on-signal.cjs), then a quiet second for the pages to settle. */
const collect = async (pid: number) => {
  process.kill(pid, "SIGUSR2");
  await new Promise((r) => setTimeout(r, 1_000));
};

/** The V8 heap in use, in MiB, as the server's own metrics say (prom-client's `nodejs_heap_size_used_bytes`). */
async function heapMiB(url: string, token: string): Promise<number> {
  const text = await (await fetch(`${url}/api/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const m = /^nodejs_heap_size_used_bytes (\S+)$/m.exec(text);
  return Number(m?.[1] ?? Number.NaN) / 2 ** 20;
}

async function measure(label: string, databaseUrl: string) {
  const llm = await startFakeLlmServer({ delayMs: 0 });
  const server = await startServer(
    `bench-memory-${label}`,
    databaseUrl,
    { OPENAI_BASE_URL: llm.url, OPENAI_MODEL: "bench-model", EVAL_WORKER: "off" },
    { nodeArgs: ["--expose-gc", "--require", path.join(import.meta.dirname, "lib/gc-on-signal.cjs")] },
  );
  try {
    const post = adminPost(server);
    await collect(server.pid);
    const idle = rssMiB(server.pid);
    const workflow = WorkflowSchema.parse(linearChain(3)); // start -> llm_1 -> end
    const created = (await post("/api/builder/agents", { name: "bench memory", workflow })) as {
      agent: { id: string };
    };
    const id = created.agent.id;
    await post(`/api/builder/agents/${id}/publish`, { version: 1 });
    let n = 0;
    const chats = async (count: number) => {
      for (let i = 0; i < count; i++, n++) await post(`/api/agents/${id}/chat`, { message: `question ${n}` });
    };
    const started = performance.now();
    await chats(WARM_UP);
    await collect(server.pid);
    const warm = rssMiB(server.pid);
    const heaps = [await heapMiB(server.url, server.adminToken)];
    const readings: number[] = [];
    for (let done = 0; done < CHATS; done += EVERY) {
      await chats(Math.min(EVERY, CHATS - done));
      await collect(server.pid);
      readings.push(rssMiB(server.pid));
      heaps.push(await heapMiB(server.url, server.adminToken));
    }
    const seconds = (performance.now() - started) / 1000;
    const last = readings.at(-1)!;
    const growth = last / warm - 1;
    console.log(
      `  ${label}: idle ${idle.toFixed(0)} MiB; after ${WARM_UP} chats ${warm.toFixed(0)} MiB; every ${EVERY} more: ${readings.map((r) => r.toFixed(0)).join(", ")} MiB; growth over ${CHATS} chats ${(growth * 100).toFixed(1)} % (target <= 10 %); V8 heap in use at the same readings ${heaps.map((h) => h.toFixed(0)).join(", ")} MiB; ${(((WARM_UP + CHATS) / seconds) | 0).toString()} chats/s`,
    );
    recordRow({
      part: "memory",
      name: `server RSS after ${CHATS} chats in a row, ${label}`,
      value: last,
      unit: "MiB",
      better: "lower",
      reference: { name: `RSS after a warm-up of ${WARM_UP} chats`, value: warm },
      ratio: last / warm,
      target: "<= 1.10x",
    });
    recordRow({
      part: "memory",
      name: `server RSS idle after start, ${label}`,
      value: idle,
      unit: "MiB",
      better: "lower",
    });
  } finally {
    await server.stop();
    await llm.close();
  }
}

if (!fs.existsSync(path.join(DIST_DIR, "BUILD_ID"))) throw new Error("run `npm run build` first");
console.log(`load average before: ${loadAverages()} (${os.cpus().length} cores)`);
console.log(
  `server memory over ${CHATS} chats in a row (production server, one chat at a time, model answering at once)`,
);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-bench-memory-"));
try {
  await measure("PGlite", `pglite:${dir}`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
if (await postgresReachable()) {
  const { url, drop } = await createPostgresDatabase({ migrated: true });
  try {
    await measure("PostgreSQL", url);
  } finally {
    await drop();
  }
} else console.log("  PostgreSQL: not reachable, skipped");
console.log(`load average after: ${loadAverages()}`);
process.exit(0);
