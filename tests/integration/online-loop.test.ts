import { describe, expect, it } from "vitest";
import { api, minimalWorkflow, servers, tokenWithRole, trpc, ok } from "./client";
import type { ServerInfo } from "./global-setup";

/**
 * The online feedback loop's first half over real HTTP, on both databases: leads from low feedback scores and from
 * guardrail signals, dismissal, adding a lead to a regression pool (golden refused, duplicates answered with the
 * existing sample, 20 concurrent adds of one trace make one sample, a frozen pool gets a new draft, a conversation
 * becomes a script with preset turns).
 */
function httpWorkflow() {
  const wf = minimalWorkflow();
  wf.nodes.splice(1, 0, {
    id: "http_1",
    type: "http",
    config: { url: "/status?code=500" } as never,
    position: { x: 120, y: 0 },
  });
  wf.edges = [
    { source: "start", target: "http_1" },
    { source: "http_1", target: "llm_1" },
    { source: "llm_1", target: "end" },
  ];
  return wf;
}

async function agentWith(server: ServerInfo, name: string, workflow: unknown) {
  const created = await ok(api(server, "POST", "/api/builder/agents", { body: { name, workflow } }), 201);
  const id = created.agent.id as string;
  await ok(api(server, "POST", `/api/builder/agents/${id}/publish`, { body: { version: 1 } }));
  return id;
}

const chat = (server: ServerInfo, agentId: string, message: string, sessionId?: string) =>
  ok(api(server, "POST", `/api/agents/${agentId}/chat`, { body: { message, ...(sessionId ? { sessionId } : {}) } }));

for (const server of servers()) {
  describe(`online feedback loop on ${server.name}`, () => {
    it("leads: low scores and guardrail signals, with status, filters and dismissal", async () => {
      const agentId = await agentWith(server, `loop-leads-${Date.now()}`, minimalWorkflow());
      const good = await chat(server, agentId, "a fine question");
      const low = await chat(server, agentId, "a question answered badly");
      await ok(api(server, "POST", `/api/traces/${good.traceId}/feedback`, { body: { score: 5 } }), 201);
      await ok(
        api(server, "POST", `/api/traces/${low.traceId}/feedback`, { body: { score: 1, comment: "wrong dish" } }),
        201,
      );
      const page = await ok(api(server, "GET", `/api/eval/online/leads?agentId=${agentId}`));
      expect(page.items.map((l: { traceId: string }) => l.traceId)).toEqual([low.traceId]);
      expect(page.items[0]).toMatchObject({
        message: "a question answered badly",
        score: 1,
        comment: "wrong dish",
        signals: ["low_score"],
        status: "new",
        pool: null,
      });
      // maxScore 5 makes the good one a lead too
      expect((await ok(api(server, "GET", `/api/eval/online/leads?agentId=${agentId}&maxScore=5`))).items).toHaveLength(
        2,
      );

      // an agent whose live query fails: no_query without any feedback
      const httpAgent = await agentWith(server, `loop-signal-${Date.now()}`, httpWorkflow());
      const failedQuery = await chat(server, httpAgent, "dinner ideas?");
      const signals = await ok(api(server, "GET", `/api/eval/online/leads?agentId=${httpAgent}&signal=no_query`));
      expect(signals.items).toHaveLength(1);
      expect(signals.items[0]).toMatchObject({ traceId: failedQuery.traceId, signals: ["no_query"], score: null });

      // dismiss (annotators may not), filter by status, restore
      const annotator = await tokenWithRole(server, "annotator");
      expect(
        (
          await api(server, "POST", `/api/eval/online/leads/${low.traceId}/dismiss`, {
            body: { reason: "x" },
            token: annotator,
          })
        ).status,
      ).toBe(403);
      const dismissed = await ok(
        api(server, "POST", `/api/eval/online/leads/${low.traceId}/dismiss`, {
          body: { reason: "the user asked for a dish we do not sell" },
        }),
      );
      expect(dismissed).toMatchObject({
        status: "dismissed",
        dismissal: { reason: "the user asked for a dish we do not sell" },
      });
      expect((await ok(api(server, "GET", `/api/eval/online/leads?agentId=${agentId}&status=new`))).items).toHaveLength(
        0,
      );
      expect(
        (await ok(api(server, "GET", `/api/eval/online/leads?agentId=${agentId}&status=dismissed`))).items[0].dismissal
          .reason,
      ).toContain("do not sell");
      await ok(api(server, "DELETE", `/api/eval/online/leads/${low.traceId}/dismiss`));
      expect((await ok(api(server, "GET", `/api/eval/online/leads?agentId=${agentId}&status=new`))).items).toHaveLength(
        1,
      );
      expect((await api(server, "GET", "/api/eval/online/leads?agentId=nope")).status).toBe(404);
      expect((await api(server, "GET", `/api/eval/online/leads?agentId=${agentId}`, { token: null })).status).toBe(401);
    });

    it("leads: status filtered in the query (full pages), execution_error and empty_items signals, from/to, cursor pages, counts per day over the range", async () => {
      const agentId = await agentWith(server, `loop-pages-${Date.now()}`, minimalWorkflow());
      const traces: string[] = [];
      for (let i = 0; i < 6; i++) {
        const t = await chat(server, agentId, `question number ${i}`);
        await ok(api(server, "POST", `/api/traces/${t.traceId}/feedback`, { body: { score: 1 } }), 201);
        traces.push(t.traceId);
      }
      // the oldest goes into a pool, the second oldest is dismissed
      const pool = await ok(
        api(server, "POST", "/api/eval/sets", {
          body: { agentId, name: "Pool", kind: "regression_pool", gateThreshold: 0 },
        }),
        201,
      );
      await ok(api(server, "POST", `/api/eval/sets/${pool.id}/pool`, { body: { traceId: traces[0] } }), 201);
      await ok(
        api(server, "POST", `/api/eval/online/leads/${traces[1]}/dismiss`, {
          body: { reason: "duplicate of another report" },
        }),
      );
      // a page of one in_pool lead is that lead (the newer, new leads do not use up the page)
      const inPool = await ok(api(server, "GET", `/api/eval/online/leads?agentId=${agentId}&status=in_pool&limit=1`));
      expect(inPool.items.map((l: { traceId: string }) => l.traceId)).toEqual([traces[0]]);
      const dismissed = await ok(
        api(server, "GET", `/api/eval/online/leads?agentId=${agentId}&status=dismissed&limit=1`),
      );
      expect(dismissed.items[0]).toMatchObject({
        traceId: traces[1],
        dismissal: { reason: "duplicate of another report", byLabel: expect.any(String) },
      });
      expect(dismissed.items[0].dismissal.byLabel).not.toBe("");
      // cursor pages of two: 6 leads newest first, no overlap, the last page ends the scan
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 5; i++) {
        const page: { items: Array<{ traceId: string }>; nextCursor: string | null } = await ok(
          api(
            server,
            "GET",
            `/api/eval/online/leads?agentId=${agentId}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
          ),
        );
        seen.push(...page.items.map((l) => l.traceId));
        cursor = page.nextCursor;
        if (!cursor) break;
      }
      expect(seen).toEqual([...traces].reverse());
      expect(cursor).toBeNull();
      expect((await api(server, "GET", `/api/eval/online/leads?agentId=${agentId}&cursor=garbage`)).status).toBe(400);
      // from/to are UTC days: today has them, yesterday and tomorrow do not
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      expect(
        (await ok(api(server, "GET", `/api/eval/online/leads?agentId=${agentId}&from=${day(0)}&to=${day(0)}`))).items,
      ).toHaveLength(6);
      expect(
        (await ok(api(server, "GET", `/api/eval/online/leads?agentId=${agentId}&to=${day(-1)}`))).items,
      ).toHaveLength(0);
      expect(
        (await ok(api(server, "GET", `/api/eval/online/leads?agentId=${agentId}&from=${day(1)}`))).items,
      ).toHaveLength(0);

      // counts per day: the whole range, every day listed, by status; the same filters
      const counts = await ok(
        api(server, "GET", `/api/eval/online/leads/per-day?agentId=${agentId}&from=${day(-2)}&to=${day(0)}`),
      );
      expect(counts).toMatchObject({
        from: day(-2),
        to: day(0),
        total: 6,
        byStatus: { new: 4, in_pool: 1, dismissed: 1 },
        complete: true,
      });
      // how many traces this request put through the guardrail rules: at most these 6, none once an earlier count of
      // the range has stored their signals (server/eval/online/online.test.ts checks the exact figures)
      expect(counts.scanned).toBeGreaterThanOrEqual(0);
      expect(counts.scanned).toBeLessThanOrEqual(6);
      expect(counts.days).toEqual([
        { day: day(-2), total: 0, new: 0, in_pool: 0, dismissed: 0 },
        { day: day(-1), total: 0, new: 0, in_pool: 0, dismissed: 0 },
        { day: day(0), total: 6, new: 4, in_pool: 1, dismissed: 1 },
      ]);
      expect((await ok(api(server, "GET", `/api/eval/online/leads/per-day?agentId=${agentId}&status=new`))).total).toBe(
        4,
      );
      expect((await ok(api(server, "GET", `/api/eval/online/leads/per-day?agentId=${agentId}`))).days).toHaveLength(30);
      expect(
        (await ok(api(server, "GET", `/api/eval/online/leads/per-day?agentId=${agentId}&signal=no_query`))).total,
      ).toBe(0);
      expect(
        (await api(server, "GET", `/api/eval/online/leads/per-day?agentId=${agentId}&from=${day(0)}&to=${day(-1)}`))
          .body.error.code,
      ).toBe("REQUEST_INVALID");
      expect(
        (await api(server, "GET", `/api/eval/online/leads/per-day?agentId=${agentId}&from=2020-01-01&to=2022-01-01`))
          .status,
      ).toBe(400);
      // the one day-range rule (server/core/params.ts) on every query with days: from after to is a 400 naming `from`
      for (const path of [
        `/api/eval/online/leads?agentId=${agentId}&`,
        `/api/eval/online/leads/per-day?agentId=${agentId}&`,
        `/api/eval/usage?`,
        `/api/eval/shadow/${agentId}/report?`,
        `/api/eval/shadow/${agentId}/disagreements?`,
      ]) {
        const res = await api(server, "GET", `${path}from=${day(0)}&to=${day(-1)}`);
        expect(res.status, path).toBe(400);
        expect(res.body.error, path).toMatchObject({
          code: "REQUEST_INVALID",
          details: [expect.objectContaining({ path: "query:/from" })],
        });
      }
      const viaTrpc = await trpc(server).eval.online.leadCounts.query({ agentId, status: "in_pool" });
      expect(viaTrpc.total).toBe(1);

      // execution_error: a node that fails; empty_items: the live query returned an empty list
      const failing = minimalWorkflow();
      failing.nodes.splice(1, 0, {
        id: "code_1",
        type: "code",
        config: { code: "raise ValueError('the menu service is down')", inputs: {} } as never,
        position: { x: 120, y: 0 },
      });
      failing.edges = [
        { source: "start", target: "code_1" },
        { source: "code_1", target: "llm_1" },
        { source: "llm_1", target: "end" },
      ];
      const failingAgent = await agentWith(server, `loop-error-${Date.now()}`, failing);
      const broken = await api(server, "POST", `/api/agents/${failingAgent}/chat`, { body: { message: "lunch?" } });
      expect(broken.status).toBe(502);
      const errLeads = await ok(
        api(server, "GET", `/api/eval/online/leads?agentId=${failingAgent}&signal=execution_error`),
      );
      expect(errLeads.items).toHaveLength(1);
      expect(errLeads.items[0]).toMatchObject({
        traceId: broken.body.traceId,
        signals: ["execution_error"],
        score: null,
        traceStatus: "failed",
      });

      const empty = minimalWorkflow();
      empty.nodes.splice(1, 0, {
        id: "http_1",
        type: "http",
        config: { url: "/api/dishes?scene=nothing-here" } as never,
        position: { x: 120, y: 0 },
      });
      empty.edges = [
        { source: "start", target: "http_1" },
        { source: "http_1", target: "llm_1" },
        { source: "llm_1", target: "end" },
      ];
      const emptyAgent = await agentWith(server, `loop-empty-${Date.now()}`, empty);
      const none = await chat(server, emptyAgent, "anything for a midnight snack?");
      const emptyLeads = await ok(
        api(server, "GET", `/api/eval/online/leads?agentId=${emptyAgent}&signal=empty_items`),
      );
      expect(emptyLeads.items.map((l: { traceId: string }) => l.traceId)).toEqual([none.traceId]);
      expect(emptyLeads.items[0].signals).toContain("empty_items");
      expect(
        (await ok(api(server, "GET", `/api/eval/online/leads?agentId=${emptyAgent}&signal=execution_error`))).items,
      ).toHaveLength(0);
      expect(
        (await ok(api(server, "GET", `/api/eval/online/leads/per-day?agentId=${emptyAgent}&signal=empty_items`))).total,
      ).toBe(1);
    });

    it("pool after a freeze: 20 concurrent adds of different traces make one new draft holding all of them; 20 of one trace make one sample", async () => {
      const agentId = await agentWith(server, `loop-race-${Date.now()}`, minimalWorkflow());
      const traces = await Promise.all(
        Array.from({ length: 21 }, (_, i) => chat(server, agentId, `race question ${i}`)),
      );
      const pool = await ok(
        api(server, "POST", "/api/eval/sets", {
          body: { agentId, name: "Race pool", kind: "regression_pool", gateThreshold: 0 },
        }),
        201,
      );
      await ok(
        api(server, "POST", `/api/eval/sets/${pool.id}/pool`, {
          body: { traceId: traces[20]!.traceId, expectedPoints: ["x"] },
        }),
        201,
      );
      await ok(api(server, "POST", `/api/eval/sets/${pool.id}/versions/1/freeze`));
      const adds = await Promise.all(
        traces
          .slice(0, 20)
          .map((t) => api(server, "POST", `/api/eval/sets/${pool.id}/pool`, { body: { traceId: t.traceId } })),
      );
      expect(adds.map((a) => a.status)).toEqual(Array(20).fill(201));
      expect(new Set(adds.map((a) => a.body.version))).toEqual(new Set([2]));
      const set = await ok(api(server, "GET", `/api/eval/sets/${pool.id}`));
      expect(
        set.versions
          .map((v: { version: number; status: string; sampleCount: number }) => [v.version, v.status, v.sampleCount])
          .sort(),
      ).toEqual([
        [1, "frozen", 1],
        [2, "draft", 21],
      ]);
      // freeze v2 (points for all), then 20 concurrent adds of one new trace: one v3 draft, one sample
      for (const s of (await ok(api(server, "GET", `/api/eval/sets/${pool.id}/versions/2/samples`))).items) {
        if (!s.expectedPoints.length)
          await ok(api(server, "PATCH", `/api/eval/samples/${s.id}`, { body: { expectedPoints: ["y"] } }));
      }
      await ok(api(server, "POST", `/api/eval/sets/${pool.id}/versions/2/freeze`));
      const fresh = await chat(server, agentId, "one more");
      const same = await Promise.all(
        Array.from({ length: 20 }, () =>
          api(server, "POST", `/api/eval/sets/${pool.id}/pool`, { body: { traceId: fresh.traceId } }),
        ),
      );
      expect(same.filter((a) => a.status === 201)).toHaveLength(1);
      expect(same.filter((a) => a.status === 200 && a.body.duplicate)).toHaveLength(19);
      const after = await ok(api(server, "GET", `/api/eval/sets/${pool.id}`));
      expect(
        after.versions.map((v: { version: number; sampleCount: number }) => [v.version, v.sampleCount]).sort(),
      ).toEqual([
        [1, 1],
        [2, 21],
        [3, 22],
      ]);
    });

    it("confirm: pool drafts only (golden and frozen refused, managers only), kept when a new version copies the sample", async () => {
      const agentId = await agentWith(server, `loop-confirm-${Date.now()}`, minimalWorkflow());
      const t = await chat(server, agentId, "a vegan lunch?");
      const pool = await ok(
        api(server, "POST", "/api/eval/sets", {
          body: { agentId, name: "Pool", kind: "regression_pool", gateThreshold: 0 },
        }),
        201,
      );
      const added = await ok(
        api(server, "POST", `/api/eval/sets/${pool.id}/pool`, { body: { traceId: t.traceId } }),
        201,
      );
      expect(added.sample).toMatchObject({ confirmedAt: null, addedById: expect.any(String) });
      const annotator = await tokenWithRole(server, "annotator");
      expect(
        (await api(server, "POST", `/api/eval/samples/${added.sample.id}/confirm`, { token: annotator })).status,
      ).toBe(403);
      const confirmed = await ok(api(server, "POST", `/api/eval/samples/${added.sample.id}/confirm`));
      expect(confirmed).toMatchObject({
        id: added.sample.id,
        confirmedAt: expect.any(String),
        confirmedById: expect.any(String),
      });
      expect((await ok(api(server, "POST", `/api/eval/samples/${added.sample.id}/confirm`))).confirmedAt).toBe(
        confirmed.confirmedAt,
      ); // idempotent
      let board = await ok(api(server, "GET", `/api/eval/online/board?agentId=${agentId}`));
      expect(board.cards[0]).toMatchObject({ stage: "confirmed", confirmed: true });
      expect(board.cards[0].history.map((h: { kind: string }) => h.kind)).toEqual(["added", "confirmed"]);
      // undo and redo through tRPC (the board's face)
      expect((await trpc(server).eval.online.unconfirm.mutate({ id: added.sample.id })).confirmedAt).toBeNull();
      expect((await trpc(server).eval.online.confirm.mutate({ id: added.sample.id })).confirmedAt).not.toBeNull();
      await ok(
        api(server, "PATCH", `/api/eval/samples/${added.sample.id}`, { body: { expectedPoints: ["a vegan dish"] } }),
      );
      board = await ok(api(server, "GET", `/api/eval/online/board?agentId=${agentId}`));
      expect(board.cards[0]).toMatchObject({ stage: "expectations", points: ["a vegan dish"] });
      await ok(api(server, "POST", `/api/eval/sets/${pool.id}/versions/1/freeze`));
      const frozen = await api(server, "POST", `/api/eval/samples/${added.sample.id}/confirm`);
      expect(frozen.status).toBe(409);
      expect(frozen.body.error.code).toBe("SET_VERSION_FROZEN");
      // a new version copies the confirmation
      await ok(api(server, "POST", `/api/eval/sets/${pool.id}/versions`, { body: {} }), 201);
      const v2 = (await ok(api(server, "GET", `/api/eval/sets/${pool.id}/versions/2/samples`))).items[0];
      expect(v2).toMatchObject({
        key: added.sample.key,
        confirmedAt: (await ok(api(server, "GET", `/api/eval/samples/${added.sample.id}`))).confirmedAt,
        addedById: added.sample.addedById,
      });
      // golden samples are not the loop's
      const golden = await ok(
        api(server, "POST", "/api/eval/sets", { body: { agentId, name: "Golden", kind: "golden", gateThreshold: 1 } }),
        201,
      );
      const g = await ok(
        api(server, "POST", `/api/eval/sets/${golden.id}/versions/1/samples`, {
          body: { question: "q", expectedPoints: ["p"] },
        }),
        201,
      );
      expect((await api(server, "POST", `/api/eval/samples/${g.id}/confirm`)).body.error.code).toBe(
        "SET_NOT_REGRESSION_POOL",
      );
      expect((await api(server, "POST", "/api/eval/samples/nope/confirm")).status).toBe(404);
    });

    it("a Bad Case for every fail, called concurrently: one Bad Case per fail, never a 500", async () => {
      const agentId = await agentWith(server, `loop-cases-${Date.now()}`, minimalWorkflow());
      const pool = await ok(
        api(server, "POST", "/api/eval/sets", {
          body: { agentId, name: "Pool", kind: "regression_pool", gateThreshold: 0 },
        }),
        201,
      );
      const n = 12;
      const content = Array.from({ length: n }, (_, i) =>
        JSON.stringify({ key: `k${i}`, question: `question ${i}`, expected_points: ["p"] }),
      ).join("\n");
      await ok(
        api(server, "POST", `/api/eval/sets/${pool.id}/versions/1/import`, { body: { format: "jsonl", content } }),
      );
      const v = await ok(api(server, "POST", `/api/eval/sets/${pool.id}/versions/1/freeze`));
      const run = await ok(
        api(server, "POST", "/api/eval/runs", { body: { setVersionId: v.id, mode: "pasted", tier: "pipeline_live" } }),
        201,
      );
      await ok(
        api(server, "POST", `/api/eval/runs/${run.id}/answers`, {
          body: { answers: Array.from({ length: n }, (_, i) => ({ key: `k${i}`, answer: "no" })) },
        }),
      );
      const items = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/items?limit=100`))).items;
      for (const it of items)
        await ok(
          api(server, "PUT", `/api/eval/runs/${run.id}/items/${it.id}/verdict`, {
            body: { verdict: "fail", basis: "wrong", attribution: "generation" },
          }),
        );
      const calls = await Promise.all(
        Array.from({ length: 6 }, () => api(server, "POST", `/api/eval/runs/${run.id}/bad-cases`)),
      );
      expect(calls.map((c) => c.status)).toEqual(Array(6).fill(200));
      expect(calls.reduce((sum, c) => sum + c.body.created, 0)).toBe(n);
      expect((await ok(api(server, "GET", `/api/eval/bad-cases?runId=${run.shortId}&limit=100`))).items).toHaveLength(
        n,
      );
      // and one item from many callers at once: one 201, the rest 200 with the same Bad Case
      const again = await ok(api(server, "POST", `/api/eval/runs/${run.id}/rerun`, { body: {} }), 201);
      await ok(
        api(server, "POST", `/api/eval/runs/${again.id}/answers`, { body: { answers: [{ key: "k0", answer: "no" }] } }),
      );
      const item = (await ok(api(server, "GET", `/api/eval/runs/${again.id}/items?limit=100`))).items.find(
        (i: { key: string }) => i.key === "k0",
      );
      await ok(
        api(server, "PUT", `/api/eval/runs/${again.id}/items/${item.id}/verdict`, {
          body: { verdict: "fail", basis: "still wrong", attribution: "generation" },
        }),
      );
      const one = await Promise.all(
        Array.from({ length: 8 }, () =>
          api(server, "POST", `/api/eval/runs/${again.id}/items/${item.id}/bad-case`, { body: {} }),
        ),
      );
      expect(one.filter((c) => c.status === 201)).toHaveLength(1);
      expect(one.filter((c) => c.status === 200)).toHaveLength(7);
      expect(new Set(one.map((c) => c.body.badCase.id)).size).toBe(1);
    });

    it("pool: golden refused, one sample per trace (also under 20 concurrent adds), new draft after freezing, conversations as scripts", async () => {
      const agentId = await agentWith(server, `loop-pool-${Date.now()}`, minimalWorkflow());
      const session = `s-${Date.now()}`;
      await chat(server, agentId, "I want breakfast", session);
      const second = await chat(server, agentId, "something without eggs", session);
      const golden = await ok(
        api(server, "POST", "/api/eval/sets", { body: { agentId, name: "Golden", kind: "golden", gateThreshold: 1 } }),
        201,
      );
      const pool = await ok(
        api(server, "POST", "/api/eval/sets", {
          body: { agentId, name: "Pool", kind: "regression_pool", gateThreshold: 0 },
        }),
        201,
      );

      const refused = await api(server, "POST", `/api/eval/sets/${golden.id}/pool`, {
        body: { traceId: second.traceId },
      });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe("SET_NOT_REGRESSION_POOL");

      const adds = await Promise.all(
        Array.from({ length: 20 }, () =>
          api(server, "POST", `/api/eval/sets/${pool.id}/pool`, {
            body: { traceId: second.traceId, expectedPoints: ["no eggs"] },
          }),
        ),
      );
      expect(adds.filter((a) => a.status === 201)).toHaveLength(1);
      expect(adds.filter((a) => a.status === 200 && a.body.duplicate)).toHaveLength(19);
      const sample = adds.find((a) => a.status === 201)!.body.sample;
      expect(sample).toMatchObject({
        question: "something without eggs",
        sourceTraceId: second.traceId,
        expectedPoints: ["no eggs"],
      });
      expect(sample.referenceAnswer).toBe(second.answer);
      // the earlier turn of the session is a preset turn of the script, the new question the last turn
      expect(sample.script).toEqual([
        { role: "user", content: "I want breakfast", preset: true },
        { role: "assistant", content: expect.any(String), preset: true },
        { role: "user", content: "something without eggs", preset: false },
      ]);
      const samples = await ok(api(server, "GET", `/api/eval/sets/${pool.id}/versions/1/samples`));
      expect(samples.items).toHaveLength(1);

      // the lead now says where it went
      const lead = (await ok(api(server, "GET", `/api/eval/online/leads?agentId=${agentId}&maxScore=5&status=in_pool`)))
        .items;
      expect(lead).toHaveLength(0); // no feedback and no signal: not a lead at all, even in the pool
      await ok(api(server, "POST", `/api/traces/${second.traceId}/feedback`, { body: { score: 2 } }), 201);
      const inPool = (await ok(api(server, "GET", `/api/eval/online/leads?agentId=${agentId}&status=in_pool`))).items;
      expect(inPool[0]).toMatchObject({
        traceId: second.traceId,
        status: "in_pool",
        pool: { setId: pool.id, version: 1, key: sample.key },
      });

      // frozen: the next add goes into a new draft copied from it; the same trace is still a duplicate
      await ok(api(server, "POST", `/api/eval/sets/${pool.id}/versions/1/freeze`));
      const again = await ok(
        api(server, "POST", `/api/eval/sets/${pool.id}/pool`, { body: { traceId: second.traceId } }),
      );
      expect(again).toMatchObject({ duplicate: true });
      const third = await chat(server, agentId, "Something without eggs!");
      const added = await ok(
        api(server, "POST", `/api/eval/sets/${pool.id}/pool`, { body: { traceId: third.traceId } }),
        201,
      );
      expect(added.version).toBe(2);
      expect(added.likelyDuplicateOf).toBe(sample.key); // same normalised question as the copied sample
      expect((await ok(api(server, "GET", `/api/eval/sets/${pool.id}/versions/2/samples`))).items).toHaveLength(2);
      // the board: each sample by its newest version, with its stage. v1 took the first sample in unconfirmed: it is
      // in the pool since that freeze (with its expected points), not a candidate again in v2; the new one is
      const board = await ok(api(server, "GET", `/api/eval/online/board?agentId=${agentId}`));
      expect(board.counts).toMatchObject({ candidate: 1, confirmed: 0, expectations: 1, frozen: 0, in_run: 0 });
      expect(
        board.cards.map((c: { key: string; stage: string; version: number }) => [c.key, c.stage, c.version]).sort(),
      ).toEqual(
        [
          [sample.key, "expectations", 2],
          [added.sample.key, "candidate", 2],
        ].sort(),
      );
      expect(board.cards.find((c: { key: string }) => c.key === sample.key)).toMatchObject({
        confirmed: true,
        confirmedVia: "freeze",
      });

      // not an online trace / another agent's / unknown
      const other = await agentWith(server, `loop-other-${Date.now()}`, minimalWorkflow());
      const foreign = await chat(server, other, "hi");
      expect(
        (await api(server, "POST", `/api/eval/sets/${pool.id}/pool`, { body: { traceId: foreign.traceId } })).body.error
          .code,
      ).toBe("TRACE_OTHER_AGENT");
      expect((await api(server, "POST", `/api/eval/sets/${pool.id}/pool`, { body: { traceId: "nope" } })).status).toBe(
        404,
      );
      const viewer = await tokenWithRole(server, "viewer");
      expect(
        (
          await api(server, "POST", `/api/eval/sets/${pool.id}/pool`, {
            body: { traceId: third.traceId },
            token: viewer,
          })
        ).status,
      ).toBe(403);
    });
  });
}
