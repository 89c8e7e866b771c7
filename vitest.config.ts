import os from "node:os";
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname) };
const unitInclude = [
  "server/**/*.test.ts",
  "components/**/*.test.{ts,tsx}",
  "lib/**/*.test.ts",
  "sample-app/**/*.test.ts",
  "scripts/**/*.test.ts",
];
// Unit files of pure code (no database, child process, server, environment variable, mock or DOM): they share their
// worker's modules (isolate: false) instead of importing zod, the workflow contract and the OpenAPI document again for
// every file. A file that mocks, stubs or keeps state between tests belongs in "unit".
const pureUnit = [
  "server/workflow/**/*.test.ts",
  "server/core/params.test.ts",
  "server/core/text.test.ts",
  "server/http/openapi.test.ts",
  "server/http/routes.test.ts",
  "server/http/error-codes.test.ts",
  "server/runtime/redact.test.ts",
  "server/mcp/tools.test.ts",
  "server/eval/suggestions/*.test.ts",
  "server/eval/reports/{compare,compare-many,gate,kappa,wave-c}.test.ts",
  "server/eval/sets/io.test.ts",
  "server/eval/vocabulary.test.ts",
  "server/architecture.test.ts",
  "components/builder/**/*.test.ts",
  "components/eval/*.test.ts",
  "components/ui/*.test.ts",
  "scripts/lib/*.test.ts",
  "sample-app/test/packaging.test.ts",
];
// HTTP-shape suites (issue 21): what the HTTP face answers (401 on every endpoint, 405/OPTIONS and Allow, the SDKs and
// MCP clients, the fuzzer's hostile values refused before they reach the database) is the same code on either
// database, so each runs on one server (shapeServers() in tests/integration/client.ts): the fuzzer on PostgreSQL, the
// others on PGlite, which balances the two legs. Every suite whose behaviour depends on the database (races, row locks,
// raw SQL, the job queue, several instances) runs in both legs; auth.test.ts and trpc-and-docs.test.ts hold both kinds.
const file = (name: string) => `tests/integration/${name}.test.ts`;
const integrationExclude: Record<string, string[]> = {
  pglite: [file("multi-instance"), file("fuzz")],
  postgresql: [file("sample-gate"), file("methods"), file("sdk-mcp"), file("bodies")],
};

// Each leg runs in two processes, each with its server (FLOWBENCH_IT_PART, set by `npm test`): "long" runs the two
// longest suites (eval 140-180 s; the fuzzer 110 s, PostgreSQL only), "rest" every other file. One process per leg ran
// them one after the other behind eval and online-loop, and the stage was the suite's critical path (480 s).
const longSuites = [file("eval"), file("fuzz")];
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
          exclude: [...configDefaults.exclude, ...pureUnit],
          environment: "node",
          // a time limit, not a measure: four tests that start PGlite, the sample app or a child process passed 30 s
          // under load 14 on the 2-core CI machine (persistence, seed, the sample agent's first question)
          testTimeout: 90_000,
          // a hook that opens a database waits for PGlite's WebAssembly to compile: seconds when both workers are busy
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "unit-pure",
          include: pureUnit,
          environment: "node",
          isolate: false,
          testTimeout: 30_000,
        },
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
        },
      },
    ],
  },
});
