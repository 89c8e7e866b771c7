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
import { startFakeLlmServer, type FakeLlmServer } from "../../server/llm/testing";
import { api, minimalWorkflow, ok, signIn, trpc } from "./client";

/**
 * Two instances started at the same moment on one fresh PostgreSQL database, as a user scales out behind a load
 * balancer: both come up (one migrates, the other waits for it), both are ready, a browser session signed in on one
 * works on the other without NEXTAUTH_SECRET, and both see the same data; then one of them dies (kill -9 of its process
 * group) in the middle of an evaluation run and the other answers everything it held. Skipped with a notice without
 * PostgreSQL.
 */
const hasPg = await postgresReachable();
if (!hasPg) console.warn("[integration] NOTICE: no PostgreSQL server reachable: the two-instance test is SKIPPED");

describe.skipIf(!hasPg)("two instances on one PostgreSQL database", () => {
  const started: StartedServer[] = [];
  const drops: (() => Promise<void>)[] = [];
  /** the model both instances call (a local OpenAI-compatible server), and the pair the first test starts */
  let model: FakeLlmServer | undefined;
  let pair: { a: StartedServer; b: StartedServer; url: string } | undefined;
  const modelEnv = async () => {
    model ??= await startFakeLlmServer();
    return { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-local-test", EVAL_JUDGE: "builtin" };
  };

  afterAll(async () => {
    for (const s of started) await s.stop().catch(() => undefined);
    for (const drop of drops) await drop();
    await model?.close();
  });

  it("start together, are both ready, share sessions and data", async () => {
    const db = await createPostgresDatabase();
    drops.push(db.drop);
    // the same headless init on both (as one deployment's configuration would be), no NEXTAUTH_SECRET
    const shared = {
      FLOWBENCH_INIT_API_TOKEN: `it_${crypto.randomUUID().replaceAll("-", "")}`,
      FLOWBENCH_SEED_SAMPLE_AGENT: "on",
      ...(await modelEnv()),
    };
    const [a, b] = await Promise.all([
      startServer("mi-a", db.url, shared, { group: true }),
      startServer("mi-b", db.url, shared, { group: true }),
    ]);
    started.push(a!, b!);
    pair = { a: a!, b: b!, url: db.url };
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
    // a new password set through A ends the person's session on B at once; the admin's own session stays (issue 28, item 4)
    const email = `mi-${Date.now()}@example.com`;
    const person = await trpc(a!).admin.users.create.mutate({ email, password: "password-one", role: "viewer" });
    const theirs = await signIn(b!.url, email, "password-one");
    expect((await fetch(`${b!.url}/api/trpc/me`, { headers: { cookie: theirs } })).status).toBe(200);
    const changed = await fetch(`${a!.url}/api/trpc/admin.users.update`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ id: person.id, password: "password-two" }),
    });
    expect(changed.status).toBe(200);
    expect((await fetch(`${b!.url}/api/trpc/me`, { headers: { cookie: theirs } })).status).toBe(401);
    expect((await fetch(`${b!.url}/api/trpc/me`, { headers: { cookie } })).status).toBe(200);
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

  it("a token revoked or an owner disabled through one instance stops working there at once and on the other within a second", async () => {
    if (!pair) throw new Error("needs the pair the first test starts");
    const { a, b } = pair;
    const meta = (s: StartedServer, token: string) =>
      fetch(`${s.url}/api/eval/meta`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    /** ms until `s` refuses `token` (polled every 20 ms, at most 5 s) */
    const refusedAfter = async (s: StartedServer, token: string) => {
      const t0 = Date.now();
      while ((await meta(s, token)) !== 401) {
        if (Date.now() - t0 > 5_000) throw new Error(`${s.name} still accepts the token after 5 s`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return Date.now() - t0;
    };
    // revoking
    const made = await trpc(a).admin.tokens.create.mutate({ name: `mi revoke ${Date.now()}`, role: "builder" });
    expect(await meta(a, made.token)).toBe(200);
    expect(await meta(b, made.token)).toBe(200); // B has it cached now
    await trpc(a).admin.tokens.revoke.mutate({ id: made.id });
    expect(await meta(a, made.token)).toBe(401);
    // PRINCIPAL_TTL_MS (1 s), then one poll and its request (slack for a loaded machine)
    expect(await refusedAfter(b, made.token)).toBeLessThanOrEqual(2_000);
    // disabling the token's owner
    const owner = await trpc(a).admin.users.create.mutate({
      email: `mi-owner-${Date.now()}@example.com`,
      password: "password-one",
      role: "builder",
    });
    const db = new pg.Client({ connectionString: pair.url });
    await db.connect();
    const owned = await trpc(a).admin.tokens.create.mutate({ name: `mi owned ${Date.now()}`, role: "builder" });
    await db.query(`UPDATE "ApiToken" SET "ownerId" = $1 WHERE id = $2`, [owner.id, owned.id]);
    await db.end();
    await new Promise((r) => setTimeout(r, 1_100)); // past any cached lookup of the token before it had an owner
    expect(await meta(b, owned.token)).toBe(200);
    await trpc(a).admin.users.update.mutate({ id: owner.id, disabled: true });
    expect(await meta(a, owned.token)).toBe(401);
    expect(await refusedAfter(b, owned.token)).toBeLessThanOrEqual(2_000);
  });

  it("kill -9 of one instance mid-run: the other answers every job it held, claimed or only fetched, within about a lease; each item once", async () => {
    if (!pair) {
      // run alone (-t): a pair of its own
      const db = await createPostgresDatabase({ migrated: true });
      drops.push(db.drop);
      const shared = {
        FLOWBENCH_INIT_API_TOKEN: `it_${crypto.randomUUID().replaceAll("-", "")}`,
        ...(await modelEnv()),
      };
      const [a, b] = await Promise.all([
        startServer("kill-a", db.url, shared, { group: true }),
        startServer("kill-b", db.url, shared, { group: true }),
      ]);
      started.push(a!, b!);
      pair = { a: a!, b: b!, url: db.url };
    }
    const { a, b } = pair;
    const llm = model!;
    llm.delayMs = 1000;
    const n = 16;
    const agent = await ok(
      api(a, "POST", "/api/builder/agents", { body: { name: `kill-${Date.now()}`, workflow: minimalWorkflow() } }),
      201,
    );
    const set = await ok(
      api(a, "POST", "/api/eval/sets", {
        body: { agentId: agent.agent.id, name: "Kill -9", kind: "golden", gateThreshold: 1 },
      }),
      201,
    );
    const asked = Array.from({ length: n }, (_, i) => `Kill test question ${i + 1}: a breakfast dish and its price?`);
    const samples = asked.map((question, i) => ({ key: `k${i + 1}`, question, expected_points: ["a dish"] }));
    await ok(
      api(a, "POST", `/api/eval/sets/${set.id}/versions/1/import`, {
        body: { format: "json", content: JSON.stringify(samples) },
      }),
    );
    const version = await ok(api(a, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`));
    const run = await ok(
      api(a, "POST", "/api/eval/runs", {
        body: { setVersionId: version.id, mode: "in_platform", tier: "pipeline", concurrency: 4 },
      }),
      201,
    );
    await ok(api(a, "POST", `/api/eval/runs/${run.id}/start`));
    const progress = async () => (await ok(api(b, "GET", `/api/eval/runs/${run.id}`))).progress;
    for (const until = Date.now() + 30_000; (await progress()).answered < 4; ) {
      if (Date.now() > until) throw new Error("the run did not get going");
      await new Promise((r) => setTimeout(r, 100));
    }
    // Hold the run's row so that both instances' next claims wait: each fills its slots with jobs fetched but not
    // claimed. More of those than one instance can hold means A holds some; kill A's whole process group then.
    const sql = new pg.Client({ connectionString: pair.url });
    await sql.connect();
    let killedAt = 0;
    try {
      await sql.query("BEGIN");
      await sql.query(`SELECT 1 FROM "EvalRun" WHERE "id" = $1 FOR UPDATE`, [run.id]);
      const fetchedOnly = async () =>
        Number(
          (
            await sql.query(
              `SELECT count(*) AS n FROM pgboss.job j JOIN "EvalRunItem" i ON i."id" = j.data->>'itemId'
               WHERE j.name = 'eval-item' AND j.state = 'active' AND i."status" = 'pending' AND i."runId" = $1`,
              [run.id],
            )
          ).rows[0].n,
        );
      for (const until = Date.now() + 4_000; (await fetchedOnly()) < 5 && Date.now() < until; )
        await new Promise((r) => setTimeout(r, 50));
      expect(await fetchedOnly()).toBeGreaterThanOrEqual(5);
      a.kill();
      killedAt = Date.now();
    } finally {
      await sql.query("ROLLBACK").catch(() => undefined);
      await sql.end();
    }
    llm.delayMs = 100;
    // default item timeout (600 s): before, A's fetched jobs waited for it; now within about a lease (30 s) + a sweep
    for (;;) {
      const r = await ok(api(b, "GET", `/api/eval/runs/${run.id}`));
      if (r.status === "awaiting_review") break;
      if (Date.now() - killedAt > 90_000)
        throw new Error(`A's jobs were not taken over in 90 s: ${JSON.stringify(r.progress)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(Date.now() - killedAt).toBeLessThan(90_000);
    expect(fs.readFileSync(b.logFile, "utf8")).toContain("not seen for a lease");
    // each item answered once (attempts: 2 only for an item A had claimed); the model saw an item's call at most
    // once per attempt, a call sent again with the same idempotency key
    const items = (await ok(api(b, "GET", `/api/eval/runs/${run.id}/items?limit=100`))).items as Array<{
      question: string;
      status: string;
      attempts: number;
    }>;
    expect(items).toHaveLength(n);
    for (const item of items) {
      expect(item.status, item.question).toBe("answered");
      expect(item.attempts, item.question).toBeGreaterThanOrEqual(1);
      expect(item.attempts, item.question).toBeLessThanOrEqual(2);
      const calls = llm.requests.filter((r) => r.body.messages?.at(-1)?.content === item.question);
      expect(calls.length, item.question).toBeGreaterThanOrEqual(1);
      expect(calls.length, item.question).toBeLessThanOrEqual(item.attempts);
      expect(new Set(calls.map((c) => c.headers["idempotency-key"])).size, item.question).toBe(1);
    }
  }, 150_000);

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
      // plain requests: api() checks answers against the server's OpenAPI document, which waits for start-up. Any
      // answer while this test holds the lock shows liveness does not wait for it, so the time limit only stops a hung
      // request: 5 s was missed at load 20 by a fresh server's first request
      const probe = async (p: string) => {
        const r = await fetch(`${s.url}${p}`, { signal: AbortSignal.timeout(30_000) });
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
      // polled like a load balancer, for which a probe whose connection is reset is one more "not ready" (two of
      // three CI runs on 2026-11-27 saw a reset here once the migrations were applied, as start-up handed the probes
      // to Next: noted for a look, not asserted either way)
      const until = Date.now() + 60_000;
      const poll = () => probe("/api/health/ready").catch(() => ({ status: 0, body: {} }));
      let ready = await poll();
      while (ready.status !== 200 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 250));
        ready = await poll();
      }
      expect(ready.status).toBe(200);
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
