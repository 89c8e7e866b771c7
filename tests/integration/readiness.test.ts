import { afterAll, describe, expect, it } from "vitest";
import {
  createPostgresDatabase,
  postgresReachable,
  startServer,
  type StartedServer,
} from "../../scripts/lib/app-server";
import { api, ok } from "./client";

/**
 * Ready means every start-up step is done (issue 28, item 9: on a fresh embedded start /api/health/ready answered 200
 * seconds before the sample agent's seed had landed, with an empty agent list behind it). A server of its own on a
 * fresh database with the seed on, watched from liveness on: the first 200 of the ready probe must already find the
 * seeded agent and its frozen gate set. On a fresh PostgreSQL database (where the seed runs under the start-up lock);
 * the fresh embedded start is sample-gate.test.ts's (PGlite leg): its server on a fresh PGlite folder with the seed on
 * finds the agent and its frozen set at its first ready answer, without polling. (Run here on PGlite too, the same
 * check cost a server start of 40-70 s in the suite.)
 */
const leg = process.env.FLOWBENCH_IT_LEG;
const kinds = leg !== "pglite" && (await postgresReachable()) ? ["postgresql" as const] : [];

const started: StartedServer[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const s of started) await s.stop().catch(() => undefined);
  for (const c of cleanups) await c();
});

describe.each(kinds)("readiness on a fresh %s start with the sample agent seeded", (kind) => {
  it("/api/health/ready answers 200 only once the seeded agent and its frozen gate set are listed", async () => {
    const db = await createPostgresDatabase();
    cleanups.push(db.drop);
    const url = db.url;
    const server = await startServer(`ready-${kind}`, url, { FLOWBENCH_SEED_SAMPLE_AGENT: "on" }, { until: "alive" });
    started.push(server);
    const waits: string[] = [];
    for (const until = Date.now() + 150_000; ; ) {
      const ready = await api(server, "GET", "/api/health/ready", { token: null });
      if (ready.status === 200) break;
      expect(ready.status, ready.text).toBe(503);
      const reason = JSON.stringify(ready.body);
      if (waits.at(-1) !== reason) waits.push(reason);
      expect(Date.now(), `not ready in 150 s: ${waits.join(" ")}`).toBeLessThan(until);
      await new Promise((r) => setTimeout(r, 100));
    }
    // at once, with no waiting: the agent list is not empty behind a ready probe
    const agents = await ok(api(server, "GET", "/api/builder/agents?q=Meal%20recommendation"));
    expect(agents.items, `ready before the seed landed (the probe said: ${waits.join(" ")})`).toHaveLength(1);
    const sets = await ok(api(server, "GET", `/api/eval/sets?agentId=${agents.items[0].id}`));
    const set = await ok(api(server, "GET", `/api/eval/sets/${sets.items[0].id}`));
    expect(set.versions.some((v: { status: string }) => v.status === "frozen")).toBe(true);
  });
});
