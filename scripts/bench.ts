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
 *   queues    the reserved queue over HTTP: next item after a verdict with reservations on (both databases), 1,000
 *             concurrent next-item calls on PostgreSQL (10 people x 100; no item reserved twice, asserted)
 *   memory    the server's resident memory over 10,000 chats in a row (both databases): idle, after warm-up, growth
 * Flags (`--name=value`) are passed to every part (see each part's header). Needs a production build (`npm run build`).
 *   --cpu-prof-dir=DIR validate: the REST server's V8 CPU profile is written to DIR (eval: the report's, see there)
 *   --json FILE        also write every row (value, unit, reference, ratio, target) as JSON (scripts/lib/bench-rows.ts)
 *   --compare OLD.json after the run, print the rows more than 20 % worse than in OLD.json (by ratio where both have
 *                      one); `--compare OLD.json NEW.json` with no part compares two files without measuring
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchValidation, generateWorkflow, printValidationRows } from "./bench-validate";
import { spawnSync } from "node:child_process";
import { DIST_DIR, ROOT, startServer } from "./lib/app-server";
import { type BenchFile, ROWS_ENV, formatWorse, machine, readRows, recordRow, worseRows } from "./lib/bench-rows";

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
async function restThroughput(total = 2000, concurrency = 16, rounds = 4, cpuProfDir?: string): Promise<Throughput[]> {
  if (!fs.existsSync(path.join(DIST_DIR, "BUILD_ID"))) throw new Error("run `npm run build` first");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-bench-"));
  // --cpu-prof-dir: the server writes a V8 CPU profile there when it stops (open it in Chrome's DevTools)
  const server = await startServer(
    "bench",
    `pglite:${dir}`,
    {},
    {
      nodeArgs: cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProfDir)}`] : [],
    },
  );
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
  queues: "scripts/bench-queues.ts",
  memory: "scripts/bench-memory.ts",
};

/** `--json FILE`, `--json=FILE`, `--compare OLD [NEW]`: taken out of the arguments; the rest are parts and flags. */
function parseArgs(argv: string[]) {
  const rest: string[] = [];
  let json: string | undefined;
  const compare: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.split(/=(.*)/s, 2) as [string, string | undefined];
    if (flag === "--json") json = inline ?? argv[++i];
    else if (flag === "--compare") {
      compare.push(inline ?? argv[++i]!);
      if (argv[i + 1]?.endsWith(".json")) compare.push(argv[++i]!);
    } else rest.push(a);
  }
  if (json === undefined && argv.some((a) => a.split("=")[0] === "--json")) throw new Error("--json needs a file");
  if (compare.some((f) => !f)) throw new Error("--compare needs a file");
  return { rest, json, compare };
}

/** `--name=value` among the arguments (the parts read their own the same way). */
function flagValue(name: string): string | undefined {
  return process.argv
    .slice(2)
    .find((a) => a.startsWith(`--${name}=`))
    ?.slice(name.length + 3);
}

function loadBenchFile(file: string) {
  return (JSON.parse(fs.readFileSync(file, "utf8")) as BenchFile).rows;
}

async function main() {
  const { rest, json, compare } = parseArgs(process.argv.slice(2));
  const wanted = rest.filter((a) => !a.startsWith("-"));
  if (compare.length === 2 && !wanted.length) {
    console.log(formatWorse(worseRows(loadBenchFile(compare[0]!), loadBenchFile(compare[1]!))));
    return;
  }
  const parts = wanted.length ? wanted : ["validate", ...Object.keys(PARTS)];
  const unknown = parts.filter((p) => p !== "validate" && !PARTS[p]);
  if (unknown.length)
    throw new Error(
      `unknown bench part(s): ${unknown.join(", ")}; choose from validate, ${Object.keys(PARTS).join(", ")}`,
    );
  const startedAt = new Date().toISOString();
  const loadBefore = os.loadavg()[0]!;
  const rowsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-bench-rows-")), "rows.jsonl");
  process.env[ROWS_ENV] = rowsFile; // the parts' children inherit it
  if (parts.includes("validate")) await benchValidate();
  for (const part of parts.filter((p) => p !== "validate")) {
    console.log(`\n===== ${part} =====`);
    const flags = rest.filter((a) => a.startsWith("-")); // e.g. eval's --baseline=<commit>
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
  const rows = readRows(rowsFile);
  fs.rmSync(path.dirname(rowsFile), { recursive: true, force: true });
  if (json) {
    const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" });
    const file: BenchFile = {
      startedAt,
      commit: commit.status === 0 ? commit.stdout.trim() : null,
      machine: machine(loadBefore),
      rows,
    };
    fs.writeFileSync(json, `${JSON.stringify(file, null, 2)}\n`);
    console.log(`\n${rows.length} rows written to ${json}`);
  }
  if (compare.length) {
    console.log(`\ncompared with ${compare[0]}:`);
    console.log(formatWorse(worseRows(loadBenchFile(compare[0]!), rows)));
  }
}

async function benchValidate() {
  console.log(`machine: ${os.cpus().length} cores, node ${process.version}\n`);
  console.log("validation latency, in process:");
  const inProcess = await benchValidation();
  printValidationRows(inProcess);
  const per500 = inProcess.find((r) => r.nodes === 500)?.perNodeUs;
  for (const r of inProcess) {
    recordRow({
      part: "validate",
      name: `in process, ${r.nodes} nodes, p50`,
      value: r.p50Ms,
      unit: "ms",
      better: "lower",
      reference: { name: "JSON.parse of the same body, p50", value: r.parseP50Ms },
      ratio: r.p50Ms / r.parseP50Ms,
      target: "<= 3x JSON.parse",
    });
    if (per500 && r.nodes !== 500)
      recordRow({
        part: "validate",
        name: `in process, per node, ${r.nodes} nodes`,
        value: r.perNodeUs,
        unit: "µs",
        better: "lower",
        reference: { name: "per node, 500 nodes", value: per500 },
        ratio: r.perNodeUs / per500,
        target: r.nodes > 500 ? "<= 1.3x the 500-node figure" : undefined,
      });
  }
  console.log(
    `\nREST throughput, production build, one server, rounds alternating (load ${os.loadavg()[0]!.toFixed(1)}):`,
  );
  const profDir = flagValue("cpu-prof-dir");
  const rows = await restThroughput(2000, 16, 4, profDir);
  if (profDir) console.log(`the server's CPU profile: ${path.resolve(profDir)}`);
  const floor = rows.at(-1)!.rps;
  console.log(
    "| request | requests | concurrency | req/s | x the 404 | p50 ms | p99 ms |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const t of rows) {
    console.log(
      `| ${t.name} | ${t.requests} | ${t.concurrency} | ${t.rps.toFixed(0)} | ${(t.rps / floor).toFixed(2)} | ${t.p50Ms.toFixed(1)} | ${t.p99Ms.toFixed(1)} |`,
    );
    if (t !== rows.at(-1))
      recordRow({
        part: "validate",
        name: `REST ${t.name}, req/s`,
        value: t.rps,
        unit: "req/s",
        better: "higher",
        reference: { name: rows.at(-1)!.name, value: floor },
        ratio: t.rps / floor,
        target: t.name.startsWith("POST") ? ">= 0.8x the 404" : undefined,
      });
  }
  console.log(`(load after: ${os.loadavg()[0]!.toFixed(1)})`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
