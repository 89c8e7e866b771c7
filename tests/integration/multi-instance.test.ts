import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import {
  createPostgresDatabase,
  postgresReachable,
  startServer,
  type StartedServer,
} from "../../scripts/lib/app-server";
import { LOCKS } from "../../server/db/locks";
import { api, minimalWorkflow, signIn } from "./client";

/**
 * Two instances started at the same moment on one fresh PostgreSQL database, as a user scales out behind a load
 * balancer: both come up (one migrates, the other waits for it), both are ready, a browser session signed in on one
 * works on the other without NEXTAUTH_SECRET, and both see the same data. Skipped with a notice without PostgreSQL.
 */
const hasPg = await postgresReachable();
if (!hasPg) console.warn("[integration] NOTICE: no PostgreSQL server reachable: the two-instance test is SKIPPED");

describe.skipIf(!hasPg)("two instances on one PostgreSQL database", () => {
  const started: StartedServer[] = [];
  const drops: (() => Promise<void>)[] = [];

  afterAll(async () => {
    for (const s of started) await s.stop().catch(() => undefined);
    for (const drop of drops) await drop();
  });

  it("start together, are both ready, share sessions and data", async () => {
    const db = await createPostgresDatabase();
    drops.push(db.drop);
    // the same headless init on both (as one deployment's configuration would be), no NEXTAUTH_SECRET
    const shared = {
      FLOWBENCH_INIT_API_TOKEN: `it_${crypto.randomUUID().replaceAll("-", "")}`,
      FLOWBENCH_SEED_SAMPLE_AGENT: "on",
    };
    const [a, b] = await Promise.all([startServer("mi-a", db.url, shared), startServer("mi-b", db.url, shared)]);
    started.push(a!, b!);
    const logs = [a!, b!].map((s) => fs.readFileSync(s.logFile, "utf8"));
    // exactly one applied the migrations; the other found them applied (after waiting, when it came second)
    expect(logs.filter((l) => /database .*: applied /.test(l)).length).toBe(1);
    expect(logs.filter((l) => /schema up to date/.test(l)).length).toBe(1);
    // and every part of start-up came up on both (the evaluation queues installed their schema one at a time)
    for (const l of logs) expect(l).not.toMatch(/did not start|could not/);
    for (const s of [a!, b!]) {
      const ready = await api(s, "GET", "/api/health/ready", { token: null });
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ status: "ready", database: { kind: "postgresql", status: "ok" } });
    }
    // a session signed in on A is valid on B (the signing key is shared through the database)
    const cookie = await signIn(a!.url, a!.adminEmail, a!.adminPassword);
    const me = await fetch(`${b!.url}/api/trpc/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { result: { data: { role: string } } }).result.data.role).toBe("admin");
    // one database: an agent made through A is listed by B
    const made = await api(a!, "POST", "/api/builder/agents", {
      body: { name: `mi-${Date.now()}`, workflow: minimalWorkflow() },
    });
    expect(made.status).toBe(201);
    const seen = await api(b!, "GET", `/api/builder/agents/${made.body.agent.id}`);
    expect(seen.status).toBe(200);
    // both seeded in the background at the same moment: one sample agent, not two
    const until = Date.now() + 90_000;
    while (![a!, b!].some((s) => fs.readFileSync(s.logFile, "utf8").includes("seeded the sample agent"))) {
      if (Date.now() > until) throw new Error("neither instance seeded the sample agent");
      await new Promise((r) => setTimeout(r, 500));
    }
    await new Promise((r) => setTimeout(r, 3000)); // the second instance's seeding (if it wrongly ran) would land by now
    const after = await api(a!, "GET", `/api/builder/agents?q=${encodeURIComponent("Meal recommendation")}`);
    expect(after.body.items.length).toBe(1);
    const seededLogs = [a!, b!].map((s) => fs.readFileSync(s.logFile, "utf8"));
    expect(seededLogs.filter((l) => l.includes("seeded the sample agent")).length).toBe(1);
  }, 240_000);

  it("while it waits for another instance's migration it is alive (liveness answers at once) but not ready", async () => {
    const db = await createPostgresDatabase();
    drops.push(db.drop);
    // "another instance" migrating: the migration lock held by this test
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query("SELECT pg_advisory_lock($1)", [LOCKS.migrate]);
      const s = await startServer("probe", db.url, {}, { until: "alive" });
      started.push(s);
      // plain requests: api() checks answers against the server's OpenAPI document, which waits for start-up
      const probe = async (p: string) => {
        const r = await fetch(`${s.url}${p}`, { signal: AbortSignal.timeout(5_000) });
        return { status: r.status, body: (await r.json()) as Record<string, unknown> };
      };
      const live = await probe("/api/health");
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ status: "ok", database: { kind: "postgresql", status: "starting" } });
      const notYet = await probe("/api/health/ready");
      expect(notYet.status).toBe(503);
      expect(notYet.body).toMatchObject({ status: "starting", database: { kind: "postgresql", status: "starting" } });
      // liveness can answer before start-up reaches the lock, so the waiting line is looked for until it appears
      const waiting = "another instance is migrating the database; waiting for it to finish";
      for (
        const until = Date.now() + 30_000;
        !fs.readFileSync(s.logFile, "utf8").includes(waiting) && Date.now() < until;
      )
        await new Promise((r) => setTimeout(r, 100));
      expect(fs.readFileSync(s.logFile, "utf8")).toContain(waiting);
      expect((await probe("/api/health/ready")).status).toBe(503); // still waiting for the lock this test holds
      await other.query("SELECT pg_advisory_unlock($1)", [LOCKS.migrate]);
      const until = Date.now() + 60_000;
      let ready = await probe("/api/health/ready");
      while (ready.status !== 200 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 250));
        ready = await probe("/api/health/ready");
      }
      // once ready, the documented routes answer (and api() checks them against the document)
      expect((await api(s, "GET", "/api/health/ready", { token: null })).body).toMatchObject({
        status: "ready",
        database: { kind: "postgresql", status: "ok" },
      });
      expect((await api(s, "GET", "/api/health", { token: null })).body.database.status).toBe("ok");
    } finally {
      await other.end();
    }
  }, 120_000);
});
