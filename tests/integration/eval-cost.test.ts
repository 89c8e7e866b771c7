import { describe, expect, it } from "vitest";
import { startServer } from "../../scripts/lib/app-server";
import { api, describeServerIndependent, minimalWorkflow, ok, servers, tokenWithRole, trpc } from "./client";
import type { ServerInfo } from "./global-setup";

/**
 * Cost and repeated answers over real HTTP on the embedded database and on PostgreSQL (issue 24): the model price
 * table (admins only, REST and tRPC), tokens by model turned into money in the report, the item and usage; runs that
 * answer each question several times (repeats, stored with the run), their consistency in the report, the other
 * answers on the item, the gate counting the judged first answers only. The servers answer with the offline provider
 * (model `offline`, estimated tokens, the same answer every time) and judge with the built-in judge (no tokens).
 */
async function waitForStatus(server: ServerInfo, runId: string, status: string, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const run = await ok(api(server, "GET", `/api/eval/runs/${runId}`));
    if (run.status === status) return run;
    if (Date.now() > until) throw new Error(`run ${runId} stayed ${run.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** An agent with a frozen 3-question set; returns the version id. */
async function frozenSet(server: ServerInfo, name: string) {
  const agent = await ok(
    api(server, "POST", "/api/builder/agents", { body: { name, workflow: minimalWorkflow() } }),
    201,
  );
  const set = await ok(
    api(server, "POST", "/api/eval/sets", {
      body: { agentId: agent.agent.id, name, kind: "golden", gateThreshold: 2 },
    }),
    201,
  );
  const content = JSON.stringify(
    [1, 2, 3].map((i) => ({
      key: `q${i}`,
      question: `Please recommend a breakfast dish and mention the price (${i})`,
      expected_points: ["recommends a breakfast dish"],
    })),
  );
  await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/import`, { body: { format: "json", content } }));
  const version = await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`));
  return { agentId: agent.agent.id as string, versionId: version.id as string };
}

const PRICE = { model: "offline", promptPerMillion: 2000, completionPerMillion: 8000, currency: "EUR" };
const money = (x: number) => Math.round(x * 1e6) / 1e6;

for (const server of servers()) {
  describe(`cost on ${server.name}`, () => {
    it("the price table: admins only (401, 403), bad input 400, REST and tRPC agree", async () => {
      expect((await api(server, "GET", "/api/admin/model-prices", { token: null })).status).toBe(401);
      expect((await api(server, "PUT", "/api/admin/model-prices", { token: null, body: { prices: [] } })).status).toBe(
        401,
      );
      const builder = await tokenWithRole(server, "builder");
      const forbidden = await api(server, "GET", "/api/admin/model-prices", { token: builder });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error.code).toBe("FORBIDDEN");
      expect(
        (await api(server, "PUT", "/api/admin/model-prices", { token: builder, body: { prices: [] } })).status,
      ).toBe(403);

      const notJson = await api(server, "PUT", "/api/admin/model-prices", { rawBody: '{"prices": [' });
      expect(notJson.status).toBe(400);
      for (const prices of [
        [{ ...PRICE, promptPerMillion: -1 }],
        [{ ...PRICE, currency: "euro" }],
        [PRICE, PRICE],
        [{ model: "offline" }],
      ]) {
        const bad = await api(server, "PUT", "/api/admin/model-prices", { body: { prices } });
        expect(bad.status, JSON.stringify(prices)).toBe(400);
        expect(bad.body.error.code).toBe("REQUEST_INVALID");
      }

      const stored = await ok(api(server, "PUT", "/api/admin/model-prices", { body: { prices: [PRICE] } }));
      expect(stored).toEqual({ prices: [PRICE], source: "settings" });
      expect(await ok(api(server, "GET", "/api/admin/model-prices"))).toEqual(stored);
      expect(await trpc(server).admin.modelPrices.get.query()).toEqual(stored);
    });

    it("tokens become money per run, per item and per day; without a price the models are named", async () => {
      await ok(api(server, "PUT", "/api/admin/model-prices", { body: { prices: [PRICE] } }));
      const { agentId, versionId } = await frozenSet(server, `cost agent ${server.name}`);
      const run = await ok(
        api(server, "POST", "/api/eval/runs", {
          body: { setVersionId: versionId, mode: "in_platform", tier: "invoke" },
        }),
        201,
      );
      await ok(api(server, "POST", `/api/eval/runs/${run.id}/start`));
      await waitForStatus(server, run.id, "awaiting_review");
      const report = await ok(api(server, "GET", `/api/eval/runs/${run.id}/report`));
      const t = report.tokens.answering;
      expect(t.promptTokens).toBeGreaterThan(0);
      const answering = money((t.promptTokens * 2000 + t.completionTokens * 8000) / 1e6);
      expect(report.cost).toEqual({
        currency: "EUR",
        answering,
        judging: 0,
        total: answering,
        byCurrency: [{ currency: "EUR", answering, judging: 0, total: answering }],
        missingPrices: [],
      });
      expect((await trpc(server).eval.runs.report.query({ id: run.id })).cost).toEqual(report.cost);

      const items = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/items`))).items;
      const item = await ok(api(server, "GET", `/api/eval/runs/${run.id}/items/${items[0].id}`));
      expect(item.cost).toMatchObject({
        currency: "EUR",
        answering: money((item.promptTokens * 2000 + item.completionTokens * 8000) / 1e6),
        judging: 0,
      });

      const usage = await ok(api(server, "GET", `/api/eval/usage?agentId=${agentId}`));
      expect(usage.totals.cost).toMatchObject({ currency: "EUR", total: answering });
      expect(usage.days.at(-1).cost).toMatchObject({ currency: "EUR", answering });

      await ok(api(server, "PUT", "/api/admin/model-prices", { body: { prices: [] } }));
      const unpriced = await ok(api(server, "GET", `/api/eval/runs/${run.id}/report`));
      expect(unpriced.cost).toEqual({
        currency: null,
        answering: null,
        judging: null,
        total: null,
        byCurrency: [],
        missingPrices: ["offline"],
      });
    });

    it("repeats: 1-5 on in-platform runs (0, 6 and pasted runs refused with 400), stored; every answer suggested; the gate counts the first answers", async () => {
      const { versionId } = await frozenSet(server, `repeats agent ${server.name}`);
      for (const body of [
        { setVersionId: versionId, mode: "in_platform", repeats: 0 },
        { setVersionId: versionId, mode: "in_platform", repeats: 6 },
        { setVersionId: versionId, mode: "in_platform", repeats: "2" },
        { setVersionId: versionId, mode: "pasted", repeats: 2 },
      ]) {
        const bad = await api(server, "POST", "/api/eval/runs", { body });
        expect(bad.status, JSON.stringify(body)).toBe(400);
        expect(bad.body.error.code).toBe("REQUEST_INVALID");
      }
      await expect(
        trpc(server).eval.runs.create.mutate({ setVersionId: versionId, mode: "in_platform", repeats: 6 }),
      ).rejects.toThrow();
      const pasted = await ok(
        api(server, "POST", "/api/eval/runs", { body: { setVersionId: versionId, mode: "pasted" } }),
        201,
      );
      expect(pasted.repeats).toBe(1);

      const run = await ok(
        api(server, "POST", "/api/eval/runs", {
          body: { setVersionId: versionId, mode: "in_platform", tier: "invoke", repeats: 3 },
        }),
        201,
      );
      expect(run.repeats).toBe(3);
      await ok(api(server, "POST", `/api/eval/runs/${run.id}/start`));
      const done = await waitForStatus(server, run.id, "awaiting_review");
      expect(done.repeats).toBe(3);
      const items = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/items`))).items;
      expect(items).toHaveLength(3);
      const item = await ok(api(server, "GET", `/api/eval/runs/${run.id}/items/${items[0].id}`));
      expect(item.otherAnswers.map((o: { number: number }) => o.number)).toEqual([2, 3]);
      expect(
        item.otherAnswers.every(
          (o: { suggestion: { verdict: string } }) => o.suggestion.verdict === item.suggestion.verdict,
        ),
      ).toBe(true);
      expect(item.otherAnswers[0].answer).toBe(item.answer); // the offline provider answers the same every time
      expect((await trpc(server).eval.items.get.query({ id: run.id, itemId: items[0].id })).otherAnswers).toHaveLength(
        2,
      );

      const report = await ok(api(server, "GET", `/api/eval/runs/${run.id}/report`));
      expect(report.consistency).toEqual({ repeats: 3, compared: 3, unstable: [], unstableShare: 0 });
      expect(report.totals.items).toBe(3);

      for (const it of items)
        await ok(api(server, "PUT", `/api/eval/runs/${run.id}/items/${it.id}/verdict`, { body: { verdict: "pass" } }));
      const gate = await ok(api(server, "GET", `/api/eval/runs/${run.id}/gate`));
      expect(gate.input.questions).toHaveLength(3);
      expect(gate.result).toMatchObject({ passed: true, counts: { questions: 3, judged: 3, pass: 3 } });
    });
  });
}

/**
 * A bad FLOWBENCH_MODEL_PRICES stops the real server at start, like every other setting (server/startup.ts: the
 * environment is checked first, before any database is opened): the production build started as `next start` on an
 * in-memory database exits with code 1 and a message naming the variable. The server is watched from its first
 * liveness answer and noticed within 250 ms of its exit (scripts/lib/app-server.ts), so this waits for no timeout.
 */
describeServerIndependent("FLOWBENCH_MODEL_PRICES at start-up", () => {
  it.each([
    ["not JSON", "not json", /FLOWBENCH_MODEL_PRICES: must be a JSON array of \{ model, promptPerMillion/],
    [
      "JSON against the table's schema (a negative price)",
      JSON.stringify([{ model: "gpt-4o-mini", promptPerMillion: -1, completionPerMillion: 0.6, currency: "USD" }]),
      /FLOWBENCH_MODEL_PRICES: \[0\.promptPerMillion\] /,
    ],
  ])("a price table that is %s stops the server at start, exit code 1, naming the variable", async (_, value, says) => {
    const started = Date.now();
    const outcome = await startServer(
      "bad-prices",
      "pglite:memory://bad-prices",
      { FLOWBENCH_MODEL_PRICES: value },
      { until: "alive", migrated: false },
    ).then(
      async (server) => {
        await server.stop();
        return new Error("the server started");
      },
      (e: unknown) => e as Error,
    );
    expect(outcome.message).toMatch(/^bad-prices server exited early \(exit code 1\):/);
    expect(outcome.message).toMatch(says);
    expect(outcome.message).toContain("Invalid environment configuration");
    expect(outcome.message).toContain("Fix the variable(s) above (see .env.example) and start again.");
    expect(Date.now() - started, "it exits at once, it does not time out").toBeLessThan(60_000);
  });
});
