#!/usr/bin/env node
// `npm test`: the whole suite, in the order that lets later stages use earlier ones.
//   0 lint and format (Biome)
//   1 unit tests (vitest, no server)       2 db:check (schema and migrations in sync)
//   3 production build (skipped when the build in NEXT_DIST_DIR, default .next, is of the sources in the tree)
//   4 integration tests over real HTTP on PGlite AND PostgreSQL (the two legs at once, in two processes)
//   5 sample-app acceptance                 6 Playwright in Debian's Chromium against the production build
// Ends with one summary line `flowbench: N passed, M failed` counting every test and check.
// `node scripts/test.mjs <stage>...` runs only those stages.
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

function run(name, cmd, args, env = {}) {
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return { ok: r.status === 0, seconds };
}

/** Like run, but several at once: each process's lines are printed as they come, prefixed with its name. */
async function runTogether(name, jobs) {
  const started = Date.now();
  console.log(`\n=== ${name} (${jobs.map((j) => j.name).join(" + ")} at once) ===`);
  const results = await Promise.all(
    jobs.map(
      (job) =>
        new Promise((resolve) => {
          const child = spawn(job.cmd, job.args, {
            cwd: root,
            stdio: ["ignore", "pipe", "pipe"],
            env: { ...process.env, ...job.env },
          });
          for (const [from, to] of [
            [child.stdout, process.stdout],
            [child.stderr, process.stderr],
          ]) {
            let rest = "";
            from.on("data", (chunk) => {
              const lines = (rest + chunk.toString()).split("\n");
              rest = lines.pop();
              for (const line of lines) to.write(`[${job.name}] ${line}\n`);
            });
            from.on("end", () => rest && to.write(`[${job.name}] ${rest}\n`));
          }
          child.on("close", (code) => resolve({ ok: code === 0, seconds: ((Date.now() - started) / 1000).toFixed(1) }));
        }),
    ),
  );
  for (const [i, r] of results.entries()) console.log(`[${jobs[i].name}] ${r.ok ? "ok" : "FAILED"} in ${r.seconds}s`);
  return { ok: results.every((r) => r.ok), seconds: ((Date.now() - started) / 1000).toFixed(1) };
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
 * CPU seconds used by this process's finished children so far (Linux: /proc/self/stat's cutime + cstime, 100 ticks a
 * second). A stage's CPU time beside its wall time says how much a faster or less busy machine can gain; null elsewhere.
 */
function childCpuSeconds() {
  try {
    const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

async function stage(name, fn) {
  if (only.length && !only.includes(name)) return;
  const cpuBefore = childCpuSeconds();
  const { ok, seconds, counts } = await fn();
  const cpuAfter = childCpuSeconds();
  const cpu = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore).toFixed(0);
  const c = counts ?? { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 };
  if (!ok && c.failed === 0) c.failed = 1; // a crashed runner counts as a failure
  results.push({ name, ok, seconds, cpu, ...c });
}

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

// Format and lint (Biome, one configuration for the whole tree: biome.json); `npm run format` fixes the format; `npm run lint` also lists the warnings, which the CI log leaves out.
await stage("lint", () => run("lint and format (Biome)", bin("biome"), ["ci", "--diagnostic-level=error", "."]));
await stage("unit", () => {
  const file = path.join(out, "unit.json");
  const r = run("unit tests", bin("vitest"), [
    "run",
    "--project",
    "unit",
    "--project",
    "unit-pure",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${file}`,
  ]);
  return { ...r, counts: vitestCounts(file) };
});
await stage("db-check", () => run("db:check", bin("tsx"), ["scripts/db.ts", "check"]));
await stage("build", () => {
  // A build of exactly the sources in the tree is not made again (the fingerprint covers every file the build reads,
  // package-lock.json included); a fresh clone has none and builds.
  if (buildState(root, distDir) === "current") {
    console.log(`\n=== production build ===\n${path.relative(root, distDir)} is a build of these sources: not rebuilt`);
    return { ok: true, seconds: "0.0" };
  }
  const fingerprint = sourceFingerprint(root); // of the sources this build is made from, so `npm start` serves it as is
  const r = run("production build", process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"]);
  if (r.ok) writeBuildFingerprint(root, distDir, fingerprint);
  return r;
});
const built = fs.existsSync(path.join(distDir, "BUILD_ID")) && results.every((r) => r.name !== "build" || r.ok);
await stage("integration", async () => {
  if (!built) return { ok: false, seconds: "0", counts: { passed: 0, failed: 1, skipped: 0 } };
  const vitest = (file) => [
    "run",
    "--project",
    "integration",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${file}`,
  ];
  if (!(await postgresReachable())) {
    // one process; its global setup prints the notice that the PostgreSQL leg is skipped
    const file = path.join(out, "integration.json");
    const r = run("integration tests (PGlite; no PostgreSQL server)", bin("vitest"), vitest(file));
    return { ...r, counts: vitestCounts(file) };
  }
  // The two legs at once, each with its own server and process (FLOWBENCH_IT_LEG, tests/integration/global-setup.ts):
  // within a leg the files still run one at a time against one server.
  const legs = ["pglite", "postgresql"];
  const files = legs.map((leg) => path.join(out, `integration-${leg}.json`));
  const r = await runTogether(
    "integration tests (PGlite + PostgreSQL)",
    legs.map((leg, i) => ({ name: leg, cmd: bin("vitest"), args: vitest(files[i]), env: { FLOWBENCH_IT_LEG: leg } })),
  );
  return { ...r, counts: addCounts(files.map(vitestCounts)) };
});
if (fs.existsSync(path.join(root, "sample-app", "scripts", "acceptance.ts"))) {
  await stage("sample-app", () => run("sample-app acceptance", bin("tsx"), ["sample-app/scripts/acceptance.ts"]));
}
await stage("e2e", () => {
  if (!built) return { ok: false, seconds: "0", counts: { passed: 0, failed: 1, skipped: 0 } };
  const file = path.join(out, "e2e.json");
  const r = run("Playwright (Chromium)", bin("playwright"), ["test", "--reporter=list,json"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: file,
  });
  return { ...r, counts: playwrightCounts(file) };
});

console.log("\n=== summary ===");
for (const r of results) {
  console.log(
    `${r.ok ? "ok  " : "FAIL"} ${r.name.padEnd(12)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed ${String(r.skipped).padStart(3)} skipped  ${r.seconds}s${r.cpu === null ? "" : ` (cpu ${r.cpu}s)`}`,
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
console.log(`flowbench: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || results.some((r) => !r.ok) ? 1 : 0);
