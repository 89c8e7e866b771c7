/**
 * `npm run bench [-- part ...]`: speed, measured (not asserted in tests). Numbers go into the README.
 * Parts (all by default, in this order):
 *   validate  in-process validation latency for 50-, 500- and 5,000-node workflows (p50/p99), and REST throughput
 *             of POST /api/builder/validate with a 50-node workflow (2,000 requests at concurrency 16)
 *   runtime   engine overhead per node; chat throughput with a local model server answering after 200 ms
 *   sandbox   code node: cold worker start, warm p50/p99
 *   eval      300-question run at concurrency 8 with a 200 ms model; report latency for a 10,000-item run, and the
 *             report service against the report before issue 24 in the same run (--baseline=<commit> for another);
 *             an eight-run comparison over 1,000 questions
 *   canvas    drag frame rate on a 500-node canvas, validate round trip from the page (Chromium)
 *   eval-ui   the evaluation pages on a 10,000-item run: annotation first paint, next item after a verdict, report (Chromium)
 *   online    leads over 100,000 online traces (both databases); chat latency with the intent shadow off and on,
 *             over HTTP against a started server whose queue worker runs the shadow jobs (both databases)
 * Flags (`--name=value`) are passed to every part (see each part's header). Needs a production build (`npm run build`).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchValidation, generateWorkflow } from "./bench-validate";
import { spawnSync } from "node:child_process";
import { DIST_DIR, ROOT, startServer } from "./lib/app-server";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

type Throughput = { name: string; requests: number; concurrency: number; rps: number; p50Ms: number; p99Ms: number };

/**
 * REST throughput of one started production server, three requests side by side (issue 27's first row): POST
 * /api/builder/validate with a 50-node workflow and a bearer token, GET /api/eval/meta with the token (a route that
 * does little work: what authentication costs), and an unauthenticated JSON 404 (the floor: routing and the answer).
 * Each is measured in rounds that alternate, so the machine's load falls on all three alike; the ratios to the 404
 * are the figures to compare between runs.
 */
async function restThroughput(total = 2000, concurrency = 16, rounds = 4): Promise<Throughput[]> {
  if (!fs.existsSync(path.join(DIST_DIR, "BUILD_ID"))) throw new Error("run `npm run build` first");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-bench-"));
  const server = await startServer("bench", `pglite:${dir}`);
  try {
    const body = JSON.stringify({ workflow: generateWorkflow(50) });
    const auth = { authorization: `Bearer ${server.adminToken}` };
    const cases = [
      {
        name: "POST /api/builder/validate (token, 50 nodes)",
        url: "/api/builder/validate",
        status: 200,
        init: { method: "POST", headers: { ...auth, "content-type": "application/json" }, body },
      },
      { name: "GET /api/eval/meta (token, little work)", url: "/api/eval/meta", status: 200, init: { headers: auth } },
      { name: "GET /api/no-such-path (no token, JSON 404)", url: "/api/no-such-path", status: 404, init: {} },
    ];
    const call = async (c: (typeof cases)[number]) => {
      const t = performance.now();
      const res = await fetch(`${server.url}${c.url}`, c.init);
      await res.arrayBuffer();
      if (res.status !== c.status) throw new Error(`${c.url}: unexpected ${res.status}`);
      return performance.now() - t;
    };
    for (const c of cases) for (let i = 0; i < 100; i++) await call(c); // warm-up (JIT, the token's lookup)
    const per = cases.map(() => ({ latencies: [] as number[], seconds: 0 }));
    for (let round = 0; round < rounds; round++) {
      for (const [i, c] of cases.entries()) {
        const n = Math.ceil(total / rounds);
        let next = 0;
        const started = performance.now();
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (next < n) {
              next++;
              per[i]!.latencies.push(await call(c));
            }
          }),
        );
        per[i]!.seconds += (performance.now() - started) / 1000;
      }
    }
    return cases.map((c, i) => {
      const latencies = per[i]!.latencies.sort((a, b) => a - b);
      return {
        name: c.name,
        requests: latencies.length,
        concurrency,
        rps: latencies.length / per[i]!.seconds,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
      };
    });
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const PARTS: Record<string, string> = {
  runtime: "scripts/bench-runtime.ts",
  sandbox: "scripts/bench-sandbox.ts",
  eval: "scripts/bench-eval.ts",
  canvas: "scripts/bench-canvas.ts",
  "eval-ui": "scripts/bench-eval-ui.ts",
  online: "scripts/bench-online.ts",
  judges: "scripts/bench-judges.ts",
};

async function main() {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
  const parts = wanted.length ? wanted : ["validate", ...Object.keys(PARTS)];
  const unknown = parts.filter((p) => p !== "validate" && !PARTS[p]);
  if (unknown.length)
    throw new Error(
      `unknown bench part(s): ${unknown.join(", ")}; choose from validate, ${Object.keys(PARTS).join(", ")}`,
    );
  if (parts.includes("validate")) await benchValidate();
  for (const part of parts.filter((p) => p !== "validate")) {
    console.log(`\n===== ${part} =====`);
    const flags = process.argv.slice(2).filter((a) => a.startsWith("-")); // e.g. eval's --baseline=<commit>
    const r = spawnSync(
      process.execPath,
      [path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), PARTS[part]!, ...flags],
      {
        cwd: ROOT,
        stdio: "inherit",
      },
    );
    if (r.status !== 0) throw new Error(`bench part ${part} failed`);
  }
}

async function benchValidate() {
  console.log(`machine: ${os.cpus().length} cores, node ${process.version}\n`);
  console.log("validation latency, in process:");
  console.log("| nodes | p50 ms | p99 ms | runs |\n| ---: | ---: | ---: | ---: |");
  for (const r of await benchValidation())
    console.log(`| ${r.nodes} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.runs} |`);
  console.log(
    `\nREST throughput, production build, one server, rounds alternating (load ${os.loadavg()[0]!.toFixed(1)}):`,
  );
  const rows = await restThroughput();
  const floor = rows.at(-1)!.rps;
  console.log(
    "| request | requests | concurrency | req/s | x the 404 | p50 ms | p99 ms |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const t of rows)
    console.log(
      `| ${t.name} | ${t.requests} | ${t.concurrency} | ${t.rps.toFixed(0)} | ${(t.rps / floor).toFixed(2)} | ${t.p50Ms.toFixed(1)} | ${t.p99Ms.toFixed(1)} |`,
    );
  console.log(`(load after: ${os.loadavg()[0]!.toFixed(1)})`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
