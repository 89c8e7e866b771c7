import { describe, expect, it } from "vitest";
import { api, minimalWorkflow, ok, servers } from "./client";
import type { ServerInfo } from "./global-setup";

/**
 * Numbers with their uncertainty over real HTTP, on the embedded database and on PostgreSQL (issue 24): the report's
 * and the gate's 95 % Wilson intervals (unjudged questions not in n) and the paired comparison of two runs of one
 * frozen set version with the exact McNemar test; runs of different versions are not paired.
 *
 * Reference values (statsmodels 0.15.0, scipy 1.17.1):
 *   proportion_confint(8, 10, method="wilson")  = (0.490162, 0.943318)
 *   proportion_confint(5, 9, method="wilson")   = (0.266651, 0.811221)
 *   proportion_confint(10, 10, method="wilson") = (0.722467, 1.0)
 *   binomtest(1, 4, 0.5).pvalue = 0.625  (b = 3, c = 1)
 * Intervals are rounded outwards to 4 decimals.
 */

const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const keys = Array.from({ length: 10 }, (_, i) => `q${String(i + 1).padStart(2, "0")}`);
type V = "pass" | "fail" | null;
// run A and run B question by question: 4 both pass, 3 A only (q05-q07), 1 B only (q08), 1 both fail, q10 judged in A only
const A: V[] = ["pass", "pass", "pass", "pass", "pass", "pass", "pass", "fail", "fail", "pass"];
const B: V[] = ["pass", "pass", "pass", "pass", "fail", "fail", "fail", "pass", "fail", null];

async function pastedRun(server: ServerInfo, setVersionId: string, verdicts: V[]) {
  const run = await ok(
    api(server, "POST", "/api/eval/runs", { body: { setVersionId, mode: "pasted", tier: "pipeline_live" } }),
    201,
  );
  await ok(
    api(server, "POST", `/api/eval/runs/${run.id}/answers`, {
      body: { answers: keys.map((key) => ({ key, answer: GOOD })) },
    }),
  );
  const items = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/items?limit=100`))).items as Array<{
    id: string;
    key: string;
  }>;
  for (const item of items) {
    const verdict = verdicts[keys.indexOf(item.key)];
    if (!verdict) continue;
    await ok(
      api(server, "PUT", `/api/eval/runs/${run.id}/items/${item.id}/verdict`, {
        body: verdict === "pass" ? { verdict } : { verdict, basis: "the price is wrong", attribution: "data" },
      }),
    );
  }
  return run as { id: string; shortId: string };
}

for (const server of servers()) {
  describe(`intervals and the paired comparison on ${server.name}`, () => {
    it("report and gate carry the Wilson intervals; two runs of one version are paired with the exact McNemar test", async () => {
      const agent = await ok(
        api(server, "POST", "/api/builder/agents", {
          body: { name: `statistics agent ${server.name}`, workflow: minimalWorkflow() },
        }),
        201,
      );
      const set = await ok(
        api(server, "POST", "/api/eval/sets", {
          body: { agentId: agent.agent.id, name: "Statistics", kind: "golden", gateThreshold: 5 },
        }),
        201,
      );
      const content = JSON.stringify(
        keys.map((key, i) => ({
          key,
          question: `Please recommend a breakfast dish and mention the price (${i + 1})`,
          expected_points: ["recommends a breakfast dish", "mentions the price"],
          classification: i < 5 ? "price" : "breakfast",
        })),
      );
      await ok(
        api(server, "POST", `/api/eval/sets/${set.id}/versions/1/import`, { body: { format: "json", content } }),
      );
      const v1 = await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`));
      const a = await pastedRun(server, v1.id, A);
      const b = await pastedRun(server, v1.id, B);

      // the report: n and the interval beside every rate; B's unjudged question is not in n
      const ra = await ok(api(server, "GET", `/api/eval/runs/${a.shortId}/report`));
      expect(ra.human).toMatchObject({ pass: 8, fail: 2, n: 10, interval: { low: 0.4901, high: 0.9434 } });
      const rb = await ok(api(server, "GET", `/api/eval/runs/${b.shortId}/report`));
      expect(rb.human).toMatchObject({ pass: 5, fail: 4, unjudged: 1, n: 9, interval: { low: 0.2666, high: 0.8113 } });
      expect(rb.machine.n).toBe(10);
      expect(rb.breakdown.byTier).toEqual([
        expect.objectContaining({ humanN: 9, humanInterval: { low: 0.2666, high: 0.8113 }, machineN: 10 }),
      ]);
      for (const g of rb.breakdown.byClassification) {
        expect(g.humanN).toBe(g.judged);
        expect(g.humanInterval).not.toBeNull();
      }

      // the gate's JSON and text: the interval beside the count, how many are unjudged; the rule is the count
      const gate = await ok(api(server, "GET", `/api/eval/runs/${b.shortId}/gate`));
      expect(gate.result.counts).toMatchObject({
        pass: 5,
        judged: 9,
        unjudged: 1,
        interval: { low: 0.2666, high: 0.8113 },
      });
      expect(gate.result.status).toBe("pending");
      expect(gate.result.summary).toContain(
        "5/10 human-confirmed passes, 95 % interval 27-81 %, threshold 5 (5 typed, 0 adopted; 9 judged, 1 unjudged)",
      );

      // the paired table over the 9 questions both runs judged: b = 3, c = 1 -> p = 0.625
      const cmp = await ok(api(server, "GET", `/api/eval/runs/compare?run_a=${a.shortId}&run_b=${b.shortId}`));
      expect(cmp.pairedUnavailable).toBeNull();
      expect(cmp.paired).toEqual({
        bothPass: 4,
        onlyA: 3,
        onlyB: 1,
        bothFail: 1,
        n: 9,
        pValue: 0.625,
        significant: false,
        sentence: "B is better on 1 question and worse on 3; the difference is not significant (p = 0.63)",
      });
      expect(cmp.passRates.human).toMatchObject({
        n: { a: 10, b: 9 },
        interval: { a: { low: 0.4901, high: 0.9434 }, b: { low: 0.2666, high: 0.8113 } },
      });
      // the other way round: B is A's mirror
      const back = await ok(api(server, "GET", `/api/eval/runs/compare?run_a=${b.id}&run_b=${a.id}`));
      expect(back.paired).toMatchObject({ onlyA: 1, onlyB: 3, pValue: 0.625 });
      expect(back.paired.sentence).toBe(
        "B is better on 3 questions and worse on 1; the difference is not significant (p = 0.63)",
      );

      // a run of another version of the set is not paired: why, and the rates with their intervals
      await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions`, { body: {} }), 201);
      const v2 = await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/2/freeze`));
      const c = await pastedRun(
        server,
        v2.id,
        keys.map(() => "pass"),
      );
      const other = await ok(api(server, "GET", `/api/eval/runs/compare?run_a=${a.shortId}&run_b=${c.shortId}`));
      expect(other.paired).toBeNull();
      expect(other.pairedUnavailable).toMatchObject({ code: "DIFFERENT_SET_VERSION" });
      expect(other.pairedUnavailable.reason).toContain("v1 vs v2");
      expect(other.passRates.human).toMatchObject({
        a: 0.8,
        b: 1,
        n: { a: 10, b: 10 },
        interval: { a: { low: 0.4901, high: 0.9434 }, b: { low: 0.7224, high: 1 } },
      });
    });
  });
}
