import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname) };
const unitRoots = ["server", "components", "lib", "sample-app", "scripts"];
/**
 * Unit files share their worker's modules (isolate: false): zod, Prisma's client, PGlite's WebAssembly and the Python
 * sandbox are loaded once per worker instead of once per file, which about halves what those files cost (28 database
 * files: 271 CPU s isolated, 142 shared, same tests passing). A file that changes what the next file in its worker
 * would see runs isolated instead, in a fresh process of its own (project "unit-isolated"): one that mocks modules,
 * stubs or assigns environment variables (`env()` is parsed once per module instance; a test that needs a model
 * provider calls server/llm/testing.ts useModelServer, which puts both back), stubs globals, fakes timers, spies, or
 * runs in a DOM. Found by reading each file (ISOLATING below), so a new file is placed without a list to
 * keep; ALSO_ISOLATED names files whose process-wide effect the pattern cannot see.
 */
const ISOLATING =
  /vi\.(mock|doMock|stubEnv|stubGlobal|spyOn|useFakeTimers)\(|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|@vitest-environment/;
const ALSO_ISOLATED = [
  "server/http/methods-guard.test.ts", // installs the process-wide method guard on http.Server
  "server/http/lingering-close.test.ts", // subscribes a diagnostics channel of every HTTP server in the process
  "server/telemetry/tracing.test.ts", // registers the global OpenTelemetry tracer provider and context manager
];
function unitFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(path.join(import.meta.dirname, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory() && !["node_modules", "generated", ".next"].includes(entry.name)) unitFiles(rel, out);
    else if (entry.isFile() && /\.test\.tsx?$/.test(entry.name)) out.push(rel);
  }
  return out;
}
const isolatedUnit = unitRoots
  .flatMap((dir) => unitFiles(dir))
  .filter(
    (f) => ALSO_ISOLATED.includes(f) || ISOLATING.test(fs.readFileSync(path.join(import.meta.dirname, f), "utf8")),
  );
const unitInclude = unitRoots.map((dir) => `${dir}/**/*.test.{ts,tsx}`);
// a time limit, not a measure: four tests that start PGlite, the sample app or a child process passed 30 s under load
// 14 on the 2-core CI machine (persistence, seed, the sample agent's first question); a hook that opens a database waits
// for PGlite's WebAssembly to compile, seconds when both workers are busy
const unitLimits = { testTimeout: 90_000, hookTimeout: 120_000 };

// HTTP-shape suites (issue 21): what the HTTP face answers (401 on every endpoint, 405/OPTIONS and Allow, the SDKs and
// MCP clients, the fuzzer's hostile values refused before they reach the database) is the same code on either
// database, so each runs on one server (shapeServers() in tests/integration/client.ts): the fuzzer on PostgreSQL, the
// others on PGlite, which balances the two legs. So does eval-ci (the CI commands only talk REST), on PGlite. Every suite whose behaviour depends on the database (races, row locks,
// raw SQL, the job queue, several instances) runs in both legs; auth.test.ts and trpc-and-docs.test.ts hold both kinds.
const file = (name: string) => `tests/integration/${name}.test.ts`;
const integrationExclude: Record<string, string[]> = {
  pglite: [file("multi-instance"), file("fuzz"), file("readiness")],
  postgresql: [file("sample-gate"), file("methods"), file("sdk-mcp"), file("bodies"), file("eval-ci"), file("otel")],
};

// Each leg runs in two processes, each with its server (FLOWBENCH_IT_PART, set by `npm test`): "long" runs the longest
// suites, "rest" every other file, chosen so the four processes end together. Per-file seconds in fresh-clone CI runs
// (41e00ec, the integration stage alone on the machine): PGlite eval 45, sample-gate 54, online-loop 41,
// demo-online-loop 23, auth 18, runtime 16, login-throttle 16, shadow 12; PostgreSQL multi-instance 72, fuzz 43,
// eval 42, online-loop 25, runtime 21, readiness 17, login-throttle 16, demo-online-loop 12, shadow 11. The parts took
// 127 (PGlite long), 145, 119 (PostgreSQL long) and 162 s; with login-throttle and runtime moved to the long parts
// (a69063a: PostgreSQL's login-throttle not yet) 129, 113, 108 and 144 s; at e147e2e 144, 127, 137 and 141 s.
// At 4f55749, beside the browser tests (2026-11-28's schedule, scripts/test.mjs), quiet machine: PGlite long 332 s
// (eval 116, runtime 62, sample-gate 60, shadow 43), rest 382 (judges 183, online-judging 50, online-loop 24, backup
// 23, otel 22); PostgreSQL long 335 (fuzz 99, eval 91, online-loop 78), rest 359 (judges 134, multi-instance 84,
// online-judging 40, eval-audit 23): online-judging (PGlite) and eval-audit (PostgreSQL) moved to the long parts.
// At ca59f85 and 422f503 (fresh clones, 2026-11-28 afternoon) PGlite's rest part was the last to end, 498 and 573 s
// against its long part's 294 and 316 (backup 86, judges 81, otel 42 in the rest; sample-gate 96, eval 83 in the
// long): backup (PGlite) moved to the long part.
// Rebalance from the durations the reporter prints after each file.
const longSuites = (
  {
    pglite: ["eval", "runtime", "sample-gate", "shadow", "login-throttle", "online-judging", "backup"],
    postgresql: ["eval", "fuzz", "online-loop", "readiness", "runtime", "login-throttle", "eval-audit"],
  } as Record<string, string[]>
)[process.env.FLOWBENCH_IT_LEG ?? ""]?.map(file) ?? [file("eval"), file("fuzz")];
const part = process.env.FLOWBENCH_IT_PART;
if (part && part !== "long" && part !== "rest") throw new Error(`FLOWBENCH_IT_PART=${part}: expected long or rest`);

export default defineConfig({
  resolve: { alias },
  test: {
    // vitest's default is one worker fewer than the cores: a single worker on a 2-core CI machine, where the unit
    // files mostly wait on PGlite, child processes and local servers; two workers take about a quarter off.
    // (The integration project runs its files one at a time regardless: fileParallelism: false.)
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: unitInclude,
          exclude: [...configDefaults.exclude, ...isolatedUnit],
          environment: "node",
          isolate: false,
          ...unitLimits,
        },
      },
      {
        resolve: { alias },
        test: { name: "unit-isolated", include: isolatedUnit, environment: "node", ...unitLimits },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: part === "long" ? longSuites : ["tests/integration/**/*.test.ts"],
          // `npm test` runs the two database legs at once, each in two processes (FLOWBENCH_IT_LEG and _PART,
          // global-setup.ts): a file that starts servers of its own for one database runs only in that leg's process
          exclude: [
            ...(integrationExclude[process.env.FLOWBENCH_IT_LEG ?? ""] ?? []),
            ...(part === "rest" ? longSuites : []),
          ],
          environment: "node",
          globalSetup: ["tests/integration/global-setup.ts"],
          // a limit, not a measure: online-loop's leads test passed 60 s with the two legs at once under load 20
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // the files only talk HTTP to the servers (none mocks or changes the environment): they share their
          // process's modules, as the unit files do
          isolate: false,
        },
      },
    ],
  },
});
