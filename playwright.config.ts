import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { defineConfig, type Project } from "@playwright/test";

// The e2e server's port: E2E_PORT, else a free one, chosen once in the runner's process and handed to its workers
// (which read this file again) through the environment. A fixed port failed at once when anything else listened there.
const freePort = () =>
  spawnSync(
    process.execPath,
    [
      "-e",
      "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })",
    ],
    { encoding: "utf8" },
  ).stdout.trim();
process.env.E2E_PORT ||= freePort();
// the meal-scenes sample app's port (the second web server, below), chosen the same way
process.env.E2E_MEALS_PORT ||= freePort();
const PORT = Number(process.env.E2E_PORT);
const MEALS_PORT = Number(process.env.E2E_MEALS_PORT);
const SERVER_DIRS = `.tmp/e2e-db-${PORT} .tmp/e2e-data-${PORT}`;
const MEALS_DIR = `.tmp/e2e-meals-${PORT}`;

/**
 * Spec files longest first, so the two workers finish together: Playwright hands out files in project order and
 * within a project alphabetically, so each listed file is a project of its own. Files not listed (new ones) run right
 * after the two longest. Alphabetical order gave one worker eval-annotation, eval-pages and eval (about 430 s of a
 * 450 s stage on the 2-core CI machine). Reorder when a file's time changes (the list reporter prints each test's).
 */
const LONGEST_FIRST = ["eval-pages", "eval-annotation", "eval", "eval-online-loop", "eval-shadow", "builder", "login"];
const listed = (name: string) => `**/${name}.spec.ts`;
const projects: Project[] = LONGEST_FIRST.map((name) => ({ name, testMatch: listed(name) }));
projects.splice(2, 0, { name: "other", testIgnore: LONGEST_FIRST.map(listed) });

/**
 * The browser: Debian's Chromium headless shell (package chromium-headless-shell, the browser Playwright itself uses
 * for headless Chromium), else Debian's full Chromium; CHROMIUM_PATH names another. The same engine and rendering as
 * the full browser without its user interface: measured on two spec files with the server, 61 CPU s against 74.
 */
const BROWSER =
  process.env.CHROMIUM_PATH ??
  (fs.existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");

/**
 * Acceptance in a real browser: Debian's Chromium (above; Playwright's own download does not work on these machines)
 * against the production build on a fresh embedded database, signed in through the real login page.
 */
export default defineConfig({
  testDir: "e2e",
  // a limit, not a measure: two tests (eval-pages' Bad Cases, eval-annotation's adopt) ran out of 60 s under load 20-30
  // on the shared 2-core CI machine, and two more (eval-pages' unknown agent, 11 s quiet; eval-cost's price form, 33 s
  // quiet) ran out of 120 s in stop 35's CI run, its e2e stage 830 s beside the integration tests; an assertion still
  // waits at most expect.timeout
  timeout: 240_000,
  // an assertion waits up to 30 s: a page on a busy 2-core CI machine (four workers with their browsers, beside the
  // integration tests' servers) took longer than 15 s to show a row in stop 35's CI run; a passing assertion does
  // not wait longer
  expect: { timeout: 30_000 },
  retries: 0,
  // Four spec files at a time: each file works on agents, sets and runs it creates itself (never another file's, and
  // never "the only agent"), so files never share state. Tests within a file still run in order. The stage mostly waits (runs being
  // answered, pages settling): two workers kept less than one core busy.
  workers: Number(process.env.E2E_WORKERS ?? 4),
  projects,
  outputDir: `.tmp/e2e-results-${PORT}`,
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: "only-on-failure",
    // as someone who asks for less motion: no transition is caught halfway by a screenshot or by axe's colour checks
    // (app/globals.css honours it)
    reducedMotion: "reduce",
    launchOptions: {
      executablePath: BROWSER,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  // Two web servers for every spec: the meal-scenes sample app that agents' http nodes call (the seeded sample agent's
  // workflow, copied by the specs that need it: e2e/helpers.ts createSampleAgent), and the production build wired to
  // it. One server for the whole stage: three specs used to start a server, a sample app and a Python sandbox of their
  // own (10-14 CPU s each, measured with scripts/lib/cpu-time.mjs).
  webServer: [
    {
      command: `rm -rf ${MEALS_DIR}; trap 'rm -rf ${MEALS_DIR}' EXIT INT TERM; node --import tsx sample-app/src/main.ts`,
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
      url: `http://127.0.0.1:${MEALS_PORT}/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: { APP_PORT: String(MEALS_PORT), DATABASE_URL: `pglite:./${MEALS_DIR}`, LOG_LEVEL: "warn" },
    },
    {
      // a fresh database, removed again when the server stops (the port differs from run to run: nothing else would)
      command: `rm -rf ${SERVER_DIRS}; trap 'rm -rf ${SERVER_DIRS}' EXIT INT TERM; node node_modules/next/dist/bin/next start -p ${PORT} -H 127.0.0.1`,
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
      url: `http://127.0.0.1:${PORT}/api/health/ready`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: {
        DATABASE_URL: `pglite:./.tmp/e2e-db-${PORT}`,
        FLOWBENCH_DATA_DIR: `.tmp/e2e-data-${PORT}`,
        FLOWBENCH_INIT_ADMIN_EMAIL: "admin@e2e.flowbench.test",
        FLOWBENCH_INIT_ADMIN_PASSWORD: "e2e-admin-password",
        FLOWBENCH_INIT_API_TOKEN: "e2e_admin_token_0123456789abcdef",
        NEXTAUTH_URL: `http://127.0.0.1:${PORT}`,
        FLOWBENCH_SEED_SAMPLE_AGENT: "off",
        // the agents' http nodes call the sample app; suggestions come from the built-in judge (no model here)
        WEBHOOK_BASE_URL: `http://127.0.0.1:${MEALS_PORT}`,
        EVAL_JUDGE: "builtin",
      },
    },
  ],
});
