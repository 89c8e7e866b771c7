/**
 * Code-node sandbox speed: `npx tsx scripts/bench-sandbox.ts` prints a table.
 *   - cold start: a new host process until its pool is ready (Pyodide cold load for the snapshot, then the
 *     workers from the snapshot);
 *   - warm: a trivial snippet through the pool, one call at a time, measured at the API (IPC to the host, the
 *     worker run, the reply); the full state reset after each run is included (it runs after the reply, before
 *     the worker takes the next call);
 *   - burst: 100 calls at once through the pool (2 run, 98 wait: the queue holds 100).
 */
import { pathToFileURL } from "node:url";
import { createSandbox } from "../server/runtime/sandbox";
import { recordRow } from "./lib/bench-rows";

export interface SandboxBenchResult {
  coldStartMs: number;
  warmP50Ms: number;
  warmP99Ms: number;
  runs: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const SNIPPET = 'result = {"n": inputs["n"] + 1, "ok": True}';

type Detail = SandboxBenchResult & {
  snapshotMs: number | null;
  workerStartMs: number[];
  inWorkerP50Ms: number;
  burst: { calls: number; totalMs: number };
  restarts: number;
};

async function measure(runs: number): Promise<Detail> {
  const sandbox = createSandbox();
  try {
    const t0 = performance.now();
    await sandbox.warmUp();
    const coldStartMs = performance.now() - t0;
    for (let i = 0; i < 30; i++) await sandbox.run({ code: SNIPPET, inputs: { n: i } });
    const times: number[] = [];
    const inside: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      const out = await sandbox.run({ code: SNIPPET, inputs: { n: i } });
      times.push(performance.now() - t);
      inside.push(out.durationMs);
      if ((out.result as { n: number }).n !== i + 1) throw new Error("wrong result");
    }
    times.sort((a, b) => a - b);
    inside.sort((a, b) => a - b);
    const burstCalls = 100; // the default queue holds 100
    const tb = performance.now();
    await Promise.all(Array.from({ length: burstCalls }, (_, i) => sandbox.run({ code: SNIPPET, inputs: { n: i } })));
    const burstMs = performance.now() - tb;
    return {
      coldStartMs,
      warmP50Ms: percentile(times, 50),
      warmP99Ms: percentile(times, 99),
      runs,
      snapshotMs: sandbox.startupInfo?.snapshotMs ?? null,
      workerStartMs: sandbox.startupInfo?.workerStartMs ?? [],
      inWorkerP50Ms: percentile(inside, 50),
      burst: { calls: burstCalls, totalMs: burstMs },
      restarts: sandbox.stats().restarts,
    };
  } finally {
    await sandbox.close();
  }
}

export async function benchSandbox(runs = 500): Promise<SandboxBenchResult> {
  const { coldStartMs, warmP50Ms, warmP99Ms } = await measure(runs);
  return { coldStartMs, warmP50Ms, warmP99Ms, runs };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  measure(500).then(
    (r) => {
      const f = (n: number | null) => (n === null ? "-" : n.toFixed(2));
      console.log(`node ${process.version}`);
      console.log("| cold start ms | warm p50 ms | warm p99 ms | runs |\n| ---: | ---: | ---: | ---: |");
      console.log(`| ${f(r.coldStartMs)} | ${f(r.warmP50Ms)} | ${f(r.warmP99Ms)} | ${r.runs} |`);
      console.log(
        `\nsnapshot (cold Pyodide load + set-up): ${f(r.snapshotMs)} ms; each worker from the snapshot: ${r.workerStartMs.join(", ")} ms`,
      );
      console.log(`in-worker time of the snippet, p50: ${f(r.inWorkerP50Ms)} ms`);
      console.log(`burst: ${r.burst.calls} concurrent calls in ${f(r.burst.totalMs)} ms`);
      console.log(`worker restarts during the benchmark: ${r.restarts} (expected 0)`);
      if (r.coldStartMs !== null)
        recordRow({ part: "sandbox", name: "cold start", value: r.coldStartMs, unit: "ms", better: "lower" });
      recordRow({ part: "sandbox", name: "warm call, p50", value: r.warmP50Ms, unit: "ms", better: "lower" });
      recordRow({ part: "sandbox", name: "warm call, p99", value: r.warmP99Ms, unit: "ms", better: "lower" });
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
