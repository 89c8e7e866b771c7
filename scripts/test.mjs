#!/usr/bin/env node
// `npm test`: the whole suite, in this order (measured: the comment above the schedule at the end of this file):
//   lint and format (Biome), first and alone (two seconds)
//   the production build (skipped when the build in NEXT_DIST_DIR, default .next, is of the sources in the tree),
//     then the integration tests over real HTTP (the PGlite and the PostgreSQL leg, each in two processes; the
//     HTTP-shape suites run in one leg only: integrationExclude in vitest.config.ts)
//   and beside that chain, from the moment the build's compiler is done, the unit tests (vitest, no server), then
//     db:check (schema and migrations in sync) with the sample app's acceptance, then Playwright in Debian's Chromium
//     against the build
// Each stage's summary line gives its wall and CPU seconds (scripts/lib/cpu-time.mjs), then the total; it ends with
// one line `flowbench: N passed, M failed` counting every test and check.
// `node scripts/test.mjs <stage>...` runs only those stages (lint unit db-check sample-app build integration e2e).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildState, sourceFingerprint, writeBuildFingerprint } from "./lib/build-fingerprint.mjs";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
// the build folder every stage uses (next.config.mjs and scripts/lib/app-server.ts read the same variable)
const distDir = path.join(root, process.env.NEXT_DIST_DIR || ".next");
const out = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-test-"));
const only = process.argv.slice(2);
const results = [];

/**
 * Runs a command; resolves with { ok, seconds, cpu } (cpu: CPU seconds of it and its descendants, null off Linux).
 * Alone (no `prefix`) its output goes straight through; beside other commands each of its lines is prefixed with
 * `[prefix]`, so stages that run at once stay readable.
 */
function run(name, cmd, args, env = {}, prefix = undefined, onLine = undefined) {
  const started = Date.now();
  if (!prefix) console.log(`\n=== ${name} ===`);
  else console.log(`[${prefix}] === ${name} ===`);
  const cpuFile = path.join(out, `cpu-${process.hrtime.bigint()}`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, "scripts/lib/cpu-time.mjs"), cpuFile, cmd, ...args], {
      cwd: root,
      stdio: prefix ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, ...env },
    });
    if (prefix) {
      for (const [from, to] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        let rest = "";
        from.on("data", (chunk) => {
          const lines = (rest + chunk.toString()).split("\n");
          rest = lines.pop();
          for (const line of lines) {
            to.write(`[${prefix}] ${line}\n`);
            onLine?.(line);
          }
        });
        from.on("end", () => rest && to.write(`[${prefix}] ${rest}\n`));
      }
    }
    child.on("close", (code) => {
      let cpu = null;
      try {
        cpu = Number(fs.readFileSync(cpuFile, "utf8"));
        fs.rmSync(cpuFile);
      } catch {
        /* no figure */
      }
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (prefix) console.log(`[${prefix}] ${code === 0 ? "ok" : "FAILED"} in ${seconds}s`);
      resolve({ ok: code === 0, seconds, cpu });
    });
  });
}

/** Several commands at once ({ name, label, cmd, args, env }), each one's lines prefixed with its name. */
async function runTogether(jobs, prefix) {
  const started = Date.now();
  const results = await Promise.all(
    jobs.map((j) => run(j.label, j.cmd, j.args, j.env, prefix ? `${prefix}/${j.name}` : j.name)),
  );
  const cpus = results.map((r) => r.cpu);
  return {
    ok: results.every((r) => r.ok),
    seconds: ((Date.now() - started) / 1000).toFixed(1),
    cpu: cpus.includes(null) ? null : cpus.reduce((a, c) => a + c, 0),
  };
}

// The names of failed tests (and a first line of why) are repeated in the summary, because a CI log is often kept
// only from its tail.
const firstLine = (text) =>
  String(text ?? "")
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .find((l) => l.trim())
    ?.trim()
    .slice(0, 300) ?? "";

function vitestCounts(file) {
  try {
    const j = JSON.parse(fs.readFileSync(file, "utf8"));
    const failures = [];
    for (const suite of j.testResults ?? []) {
      const rel = path.relative(root, suite.name ?? "");
      const failedTests = (suite.assertionResults ?? []).filter((t) => t.status === "failed");
      for (const t of failedTests)
        failures.push(`${rel} > ${t.fullName ?? t.title}: ${firstLine(t.failureMessages?.[0])}`);
      if (!failedTests.length && suite.status === "failed") failures.push(`${rel}: ${firstLine(suite.message)}`);
    }
    return {
      passed: j.numPassedTests,
      failed: j.numFailedTests + (j.numTotalTestSuites && !j.success && j.numFailedTests === 0 ? 1 : 0),
      skipped: j.numPendingTests + j.numTodoTests,
      failures,
    };
  } catch {
    return null;
  }
}

function playwrightCounts(file) {
  try {
    const report = JSON.parse(fs.readFileSync(file, "utf8"));
    const s = report.stats;
    const failures = [];
    const walk = (suite, titles) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          if (t.status !== "unexpected") continue;
          const last = t.results?.[t.results.length - 1];
          failures.push(
            `${spec.file}:${spec.line} > ${[...titles, spec.title].join(" > ")}: ${firstLine(last?.error?.message)}`,
          );
        }
      }
      for (const child of suite.suites ?? [])
        walk(child, suite.title && !suite.title.endsWith(".ts") ? [...titles, suite.title] : titles);
    };
    for (const suite of report.suites ?? []) walk(suite, []);
    return { passed: s.expected + s.flaky, failed: s.unexpected, skipped: s.skipped, failures };
  } catch {
    return null;
  }
}

/**
 * Runs stages; several at once when given several: `stages(["unit", fn], ["db-check", fn])`. A stage function gets
 * `run(label, cmd, args, env)` (prefixing its output when it runs beside others, and the prefix for runTogether) and
 * resolves with { ok, seconds, cpu, counts? }. Each stage is reported on its own line with its wall and CPU seconds.
 */
async function stages(...list) {
  const active = list.filter(([name]) => !only.length || only.includes(name));
  const together = active.length > 1 || overlapping;
  if (together)
    console.log(
      `\n=== ${active.map(([name]) => name).join(" + ")} ${active.length > 1 ? "at once" : "(beside the other chain)"} ===`,
    );
  const done = await Promise.all(
    active.map(async ([name, fn]) => {
      const prefix = together ? name : undefined;
      const r = await fn((label, cmd, args, env, onLine) => run(label, cmd, args, env, prefix, onLine), prefix);
      const c = r.counts ?? { passed: r.ok ? 1 : 0, failed: r.ok ? 0 : 1, skipped: 0 };
      if (!r.ok && c.failed === 0) c.failed = 1; // a crashed runner counts as a failure
      const cpu = r.cpu === null || r.cpu === undefined ? null : r.cpu.toFixed(0);
      return { name, ok: r.ok, seconds: r.seconds, cpu, together, ...c };
    }),
  );
  results.push(...done);
}
const stage = (name, fn) => stages([name, fn]);
/** whether stages run beside others (their output lines are then prefixed with the stage's name) */
let overlapping = false;

/** Counts of several vitest JSON reports added up (null when one is missing: the runner crashed). */
function addCounts(list) {
  if (list.some((c) => !c)) return null;
  return {
    passed: list.reduce((a, c) => a + c.passed, 0),
    failed: list.reduce((a, c) => a + c.failed, 0),
    skipped: list.reduce((a, c) => a + c.skipped, 0),
    failures: list.flatMap((c) => c.failures),
  };
}

async function postgresReachable() {
  const { default: pg } = await import("pg");
  const client = new pg.Client({
    connectionString: process.env.FLOWBENCH_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test",
    connectionTimeoutMillis: 2000,
  });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const runStarted = Date.now();
const vitestJson = (file) => ["--reporter=default", "--reporter=json", `--outputFile.json=${file}`];
const hasSampleApp = fs.existsSync(path.join(root, "sample-app", "scripts", "acceptance.ts"));
let built = false;
/** resolved when the build's compiler is done (Next then type-checks and collects page data) or the build ended */
let compiled;
const buildCompiled = new Promise((resolve) => (compiled = resolve));

// Format and lint (Biome, one configuration for the whole tree: biome.json); `npm run format` fixes the format; `npm run lint` also lists the warnings, which the CI log leaves out.
const lint = ["lint", (run) => run("lint and format (Biome)", bin("biome"), ["ci", "--diagnostic-level=error", "."])];
const unit = [
  "unit",
  async (run) => {
    const file = path.join(out, "unit.json");
    const r = await run("unit tests", bin("vitest"), [
      "run",
      "--project",
      "unit",
      "--project",
      "unit-isolated",
      ...vitestJson(file),
    ]);
    return { ...r, counts: vitestCounts(file) };
  },
];
const dbCheck = ["db-check", (run) => run("db:check", bin("tsx"), ["scripts/db.ts", "check"])];
const sampleApp = [
  "sample-app",
  // a cold start's limit of 30 s was missed under load beside other stages: 120 s here (a limit, not a measure)
  (run) =>
    run("sample-app acceptance", bin("tsx"), ["sample-app/scripts/acceptance.ts"], {
      ACCEPTANCE_START_TIMEOUT_MS: "120000",
    }),
];
const build = [
  "build",
  async (run) => {
    // A build of exactly the sources in the tree is not made again (the fingerprint covers every file the build reads,
    // package-lock.json included); a fresh clone has none and builds.
    if (buildState(root, distDir) === "current") {
      console.log(
        `\n=== production build ===\n${path.relative(root, distDir)} is a build of these sources: not rebuilt`,
      );
      return { ok: true, seconds: "0.0", cpu: 0 };
    }
    const fingerprint = sourceFingerprint(root); // of the sources this build is made from, so `npm start` serves it as is
    const r = await run(
      "production build",
      process.execPath,
      [path.join(root, "node_modules/next/dist/bin/next"), "build"],
      {},
      (line) => /Running TypeScript|Collecting page data/.test(line) && compiled(),
    );
    if (r.ok) writeBuildFingerprint(root, distDir, fingerprint);
    return r;
  },
];
const notBuilt = { ok: false, seconds: "0", cpu: 0, counts: { passed: 0, failed: 1, skipped: 0 } };
const integration = [
  "integration",
  async (run, prefix) => {
    if (!built) return notBuilt;
    const vitest = (file) => ["run", "--project", "integration", ...vitestJson(file)];
    if (!(await postgresReachable())) {
      // one process; its global setup prints the notice that the PostgreSQL leg is skipped
      const file = path.join(out, "integration.json");
      const r = await run("integration tests (PGlite; no PostgreSQL server)", bin("vitest"), vitest(file));
      return { ...r, counts: vitestCounts(file) };
    }
    // The two legs at once, each in two processes with a server of their own (FLOWBENCH_IT_LEG and FLOWBENCH_IT_PART:
    // a leg's longest suites apart from the rest, vitest.config.ts; tests/integration/global-setup.ts): within a
    // process the files run one at a time against its server. Each HTTP-shape suite runs in one leg only
    // (integrationExclude in vitest.config.ts).
    if (!prefix) console.log("\n=== integration tests (PGlite + PostgreSQL legs at once) ===");
    const parts = ["pglite", "postgresql"].flatMap((leg) => ["long", "rest"].map((part) => ({ leg, part })));
    const files = parts.map(({ leg, part }) => path.join(out, `integration-${leg}-${part}.json`));
    const r = await runTogether(
      parts.map(({ leg, part }, i) => ({
        name: `${leg}-${part}`,
        label: `integration tests on ${leg} (${part === "long" ? "the longest suites" : "the other suites"})`,
        cmd: bin("vitest"),
        args: vitest(files[i]),
        env: { FLOWBENCH_IT_LEG: leg, FLOWBENCH_IT_PART: part },
      })),
      prefix,
    );
    return { ...r, counts: addCounts(files.map(vitestCounts)) };
  },
];
const e2e = [
  "e2e",
  async (run) => {
    if (!built) return notBuilt;
    const file = path.join(out, "e2e.json");
    // no screenshots for people to look at (e2e/helpers.ts shot: they assert nothing and cost 40 CPU s); a failing
    // test's screenshot is kept. E2E_SCREENSHOTS=1 npm test takes them.
    const r = await run("Playwright (Chromium)", bin("playwright"), ["test", "--reporter=list,json"], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: file,
      E2E_SCREENSHOTS: process.env.E2E_SCREENSHOTS ?? "0",
    });
    return { ...r, counts: playwrightCounts(file) };
  },
];

await stages(lint);
// The order, measured (docs/suite-history.md): the stages are CPU-bound on a 2-core machine, and running them all
// at once cost far more than it saved. Two chains side by side:
// 1. the production build, then the integration tests;
// 2. from the moment the build's compiler is done (its type check and page data take one core for 30-40 s) the unit
//    tests, then db:check and the sample app's acceptance, which need no build, then the browser tests.
// The unit tests beside the browser tests (the order before 2026-11-28) took 3.4 times their time alone (372 s against
// 108 s on a quiet machine): Chromium and the browser's server starve PGlite's WebAssembly and the sandbox's
// processes, while beside the build they mostly fill the build's one-core stretches. Until 2026-11-28 13:00 the
// integration tests waited for the unit tests too; the unit tests alone left most of a core idle for 90 s.
const wanted = (name) => !only.length || only.includes(name);
overlapping = [unit, dbCheck, build, integration, e2e].filter(([name]) => wanted(name)).length > 1;
let buildDone;
const buildFinished = new Promise((resolve) => (buildDone = resolve));
await Promise.all([
  (async () => {
    await stages(build);
    built = fs.existsSync(path.join(distDir, "BUILD_ID")) && results.every((r) => r.name !== "build" || r.ok);
    compiled(); // also when the build was skipped, failed or printed neither line
    buildDone();
    await stages(integration);
  })(),
  (async () => {
    await buildCompiled;
    await stages(unit);
    await stages(dbCheck, ...(hasSampleApp ? [sampleApp] : []));
    await buildFinished;
    await stages(e2e);
  })(),
]);

console.log("\n=== summary ===");
const ORDER = ["lint", "unit", "db-check", "sample-app", "build", "integration", "e2e"];
results.sort((a, b) => ORDER.indexOf(a.name) - ORDER.indexOf(b.name));
for (const r of results) {
  console.log(
    `${r.ok ? "ok  " : "FAIL"} ${r.name.padEnd(12)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed ${String(r.skipped).padStart(3)} skipped  ${r.seconds}s${r.cpu === null ? "" : ` (cpu ${r.cpu}s)`}${r.together ? " (beside others)" : ""}`,
  );
}
const passed = results.reduce((a, r) => a + r.passed, 0);
const failed = results.reduce((a, r) => a + r.failed, 0);
const skipped = results.reduce((a, r) => a + r.skipped, 0);
const failures = results.flatMap((r) => (r.failures ?? []).map((f) => `${r.name}: ${f}`));
if (failures.length) {
  console.log("\nfailed:");
  for (const f of failures.slice(0, 30)) console.log(`  ${f}`);
  if (failures.length > 30) console.log(`  ... and ${failures.length - 30} more`);
}
console.log(`total ${((Date.now() - runStarted) / 1000).toFixed(1)}s`);
console.log(`flowbench: ${passed} passed, ${failed} failed, ${skipped} skipped`);
fs.rmSync(out, { recursive: true, force: true });
process.exit(failed > 0 || results.some((r) => !r.ok) ? 1 : 0);
