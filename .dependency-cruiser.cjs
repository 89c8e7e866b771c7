/**
 * The import rules of ARCHITECTURE.md, checked by dependency-cruiser in `npm test` (server/architecture.test.ts)
 * and drawn by `npm run architecture` (a feature-level graph of server/).
 *
 * Floors of server/, bottom first; a module may import its own folder and the folders listed for it:
 *   db            Prisma client, adapters, migrations
 *   telemetry     the process's metrics (prom-client); imports nothing of server/
 *   core          errors, env, params, origin grammar (may read db/url to validate DATABASE_URL)
 *   workflow      the node-type contract and validation (pure)
 *   llm, auth     model providers; users, tokens, roles, sessions
 *   runtime       the executor and node handlers, chat, traces
 *   agents        agents and their immutable versions
 *   webhooks      signed webhooks: endpoints, deliveries (their pg-boss queue), the events' emitter
 *   eval          the evaluation center
 *   seed, mcp     the sample agent; the MCP tool definitions
 *   http, api     the two faces (REST endpoints + OpenAPI; tRPC), which never import each other
 *   startup.ts    the server's start-up, on top of everything
 * Tests (*.test.ts) may import anything; test helpers (testing.ts, fixtures.ts) may not be imported by production code.
 */
const FLOORS = {
  db: [],
  telemetry: [],
  core: ["db"],
  workflow: ["core"],
  llm: ["core", "telemetry"],
  auth: ["core", "db"],
  runtime: ["core", "db", "workflow", "llm", "auth", "telemetry"],
  agents: ["core", "db", "workflow", "runtime", "auth", "telemetry"],
  webhooks: ["core", "db", "auth", "runtime", "telemetry"],
  eval: ["core", "db", "workflow", "llm", "auth", "runtime", "agents", "telemetry", "webhooks"],
  seed: ["core", "db", "workflow", "llm", "auth", "runtime", "agents", "eval", "telemetry", "webhooks"],
  mcp: ["core", "workflow"],
  http: ["core", "db", "workflow", "llm", "auth", "runtime", "agents", "eval", "seed", "mcp", "telemetry", "webhooks"],
  api: ["core", "db", "workflow", "llm", "auth", "runtime", "agents", "eval", "seed", "mcp", "telemetry", "webhooks"],
};
const TESTS = "\\.test\\.tsx?$";
const TEST_HELPERS = "(^|/)(testing|fixtures)\\.ts$|^server/db/test-(db|postgres|legs)\\.ts$";

const layerRules = Object.entries(FLOORS).map(([floor, below]) => ({
  name: `floor-${floor}`,
  comment: `server/${floor} may import only ${[floor, ...below].join(", ")} (ARCHITECTURE.md, "Layers")`,
  severity: "error",
  from: { path: `^server/${floor}/`, pathNot: TESTS },
  to: {
    path: "^server/",
    pathNot: [`^server/(${[floor, ...below].join("|")})/`, floor === "core" ? "^server/db/url\\.ts$" : "^$"],
  },
}));

/**
 * Sub-folders of server/eval, bottom first (server/eval/README.md, "Who may import what"): a module may import its own
 * sub-folder and those below it. Every sub-folder's schemas.ts is the evaluation center's vocabulary (pure zod) and
 * may be imported from any sub-folder; cycles among them are still refused by no-circular.
 */
const EVAL_FLOORS = ["suggestions", "sets", "shadow", "runs", "verdicts", "reports", "online"];
const evalRules = EVAL_FLOORS.map((sub, i) => ({
  name: `eval-floor-${sub}`,
  comment: `server/eval/${sub} may import only ${EVAL_FLOORS.slice(0, i + 1).join(", ")} (and any sub-folder's schemas.ts)`,
  severity: "error",
  from: { path: `^server/eval/${sub}/`, pathNot: TESTS },
  to: { path: `^server/eval/(${EVAL_FLOORS.slice(i + 1).join("|") || "$^"})/`, pathNot: "/schemas\\.ts$" },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import cycles (static, dynamic or type-only) in the app's code.",
      severity: "error",
      from: { path: "^(server|components|lib|app)/" },
      to: { circular: true },
    },
    ...layerRules,
    ...evalRules,
    {
      name: "no-feature-in-server-root",
      comment: "server/*.ts at the root is start-up only; nothing below imports it.",
      severity: "error",
      from: { path: "^server/[^/]+/", pathNot: TESTS },
      to: { path: "^server/[^/]+\\.ts$" },
    },
    {
      name: "no-test-helpers-in-production",
      comment:
        "Test and benchmark helpers stay out of the production bundle: only tests, benchmarks and other helpers import them.",
      severity: "error",
      from: { path: "^(server|components|lib|app)/", pathNot: [TESTS, TEST_HELPERS] },
      to: { path: TEST_HELPERS },
    },
    {
      name: "ui-primitives-are-a-floor",
      comment:
        "components/ui is the bottom of the UI: primitives know no feature (builder, eval, settings) and no server code.",
      severity: "error",
      from: { path: "^components/ui/", pathNot: TESTS },
      to: { path: "^(components/(?!ui/)|server/|lib/)" },
    },
    {
      name: "ui-talks-through-trpc",
      comment:
        "components/ and lib/ reach the server through tRPC hooks; they may import the pure contract (server/workflow) and types.",
      severity: "error",
      from: { path: "^(components|lib)/", pathNot: TESTS },
      to: { path: "^server/", pathNot: "^server/workflow/", dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|\\.next[^/]*|server/db/generated|\\.tmp|data)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: {
      archi: { collapsePattern: "^server/[^/]+|^(app|components|lib)/[^/]+" },
    },
  },
};
