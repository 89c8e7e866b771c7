#!/usr/bin/env node
// `npm test`: the whole suite, in the order that lets later stages use earlier ones.
//   0 lint and format (Biome)
//   1 unit tests (vitest, no server)       2 db:check (schema and migrations in sync)
//   3 production build                      4 integration tests over real HTTP on PGlite AND PostgreSQL
//   5 sample-app acceptance                 6 Playwright in Debian's Chromium against the production build
// Ends with one summary line `flowbench: N passed, M failed` counting every test and check.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sourceFingerprint, writeBuildFingerprint } from "./lib/build-fingerprint.mjs";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
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

function stage(name, fn) {
  if (only.length && !only.includes(name)) return;
  const { ok, seconds, counts } = fn();
  const c = counts ?? { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 };
  if (!ok && c.failed === 0) c.failed = 1; // a crashed runner counts as a failure
  results.push({ name, ok, seconds, ...c });
}

// Format and lint (Biome, one configuration for the whole tree: biome.json); `npm run format` fixes the format.
stage("lint", () => run("lint and format (Biome)", bin("biome"), ["ci", "."]));
stage("unit", () => {
  const file = path.join(out, "unit.json");
  const r = run("unit tests", bin("vitest"), [
    "run",
    "--project",
    "unit",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${file}`,
  ]);
  return { ...r, counts: vitestCounts(file) };
});
stage("db-check", () => run("db:check", bin("tsx"), ["scripts/db.ts", "check"]));
stage("build", () => {
  const fingerprint = sourceFingerprint(root); // of the sources this build is made from, so `npm start` serves it as is
  const r = run("production build", process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"]);
  if (r.ok) writeBuildFingerprint(root, path.join(root, ".next"), fingerprint);
  return r;
});
const built = fs.existsSync(path.join(root, ".next", "BUILD_ID")) && results.every((r) => r.name !== "build" || r.ok);
stage("integration", () => {
  if (!built) return { ok: false, seconds: "0", counts: { passed: 0, failed: 1, skipped: 0 } };
  const file = path.join(out, "integration.json");
  const r = run("integration tests (PGlite + PostgreSQL)", bin("vitest"), [
    "run",
    "--project",
    "integration",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${file}`,
  ]);
  return { ...r, counts: vitestCounts(file) };
});
if (fs.existsSync(path.join(root, "sample-app", "scripts", "acceptance.ts"))) {
  stage("sample-app", () => run("sample-app acceptance", bin("tsx"), ["sample-app/scripts/acceptance.ts"]));
}
stage("e2e", () => {
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
    `${r.ok ? "ok  " : "FAIL"} ${r.name.padEnd(12)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed ${String(r.skipped).padStart(3)} skipped  ${r.seconds}s`,
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
