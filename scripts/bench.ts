/**
 * `npm run bench`: speed, measured (not asserted in tests). Numbers go into the README.
 *   1. in-process validation latency for generated 50-, 500- and 5,000-node workflows (p50/p99)
 *   2. REST throughput of POST /api/builder/validate with a 50-node workflow against the production build
 *      (embedded database), 2,000 requests at concurrency 16
 * Needs a production build (`npm run build`).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchValidation, generateWorkflow } from "./bench-validate";
import { DIST_DIR, startServer } from "./lib/app-server";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function restThroughput(total = 2000, concurrency = 16) {
  if (!fs.existsSync(path.join(DIST_DIR, "BUILD_ID"))) throw new Error("run `npm run build` first");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-bench-"));
  const server = await startServer("bench", `pglite:${dir}`);
  try {
    const body = JSON.stringify({ workflow: generateWorkflow(50) });
    const headers = { authorization: `Bearer ${server.adminToken}`, "content-type": "application/json" };
    const call = async () => {
      const t = performance.now();
      const res = await fetch(`${server.url}/api/builder/validate`, { method: "POST", headers, body });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`unexpected ${res.status}`);
      return performance.now() - t;
    };
    for (let i = 0; i < 100; i++) await call(); // warm-up (JIT, token lookup path)
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) {
          next++;
          latencies.push(await call());
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return { requests: total, concurrency, rps: total / seconds, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(`machine: ${os.cpus().length} cores, node ${process.version}\n`);
  console.log("validation latency, in process:");
  console.log("| nodes | p50 ms | p99 ms | runs |\n| ---: | ---: | ---: | ---: |");
  for (const r of await benchValidation()) console.log(`| ${r.nodes} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.runs} |`);
  console.log("\nREST POST /api/builder/validate, 50-node workflow, production build:");
  const t = await restThroughput();
  console.log(`| requests | concurrency | req/s | p50 ms | p99 ms |\n| ---: | ---: | ---: | ---: | ---: |`);
  console.log(`| ${t.requests} | ${t.concurrency} | ${t.rps.toFixed(0)} | ${t.p50Ms.toFixed(1)} | ${t.p99Ms.toFixed(1)} |`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
