import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3917);

/**
 * Acceptance in a real browser: Debian's Chromium (Playwright's own download does not work on these machines)
 * against the production build on a fresh embedded database, signed in through the real login page.
 */
export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  // an assertion waits up to 15 s: a page on a busy 2-core CI machine (two workers, each with its browser and
  // servers) can take longer than Playwright's default 5 s to answer, and a passing assertion does not wait longer
  expect: { timeout: 15_000 },
  retries: 0,
  // Two spec files at a time: the eval specs start servers of their own and the others use data they create
  // themselves, so files never share state. Tests within a file still run in order.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  outputDir: `.tmp/e2e-results-${PORT}`,
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
  webServer: {
    command: `rm -rf .tmp/e2e-db-${PORT} .tmp/e2e-data-${PORT} && node node_modules/next/dist/bin/next start -p ${PORT} -H 127.0.0.1`,
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
    },
  },
});
