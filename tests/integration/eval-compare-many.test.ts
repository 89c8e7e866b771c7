import { describe, expect, it } from "vitest";
import { api, minimalWorkflow, ok, servers, trpc, trpcErrorOf } from "./client";
import type { ServerInfo } from "./global-setup";

/**
 * Many runs and the trend over real HTTP and tRPC, on the embedded database and on PostgreSQL (issue 24): up to eight
 * runs of one set version in one grid (each run's verdicts, the questions whose verdict changes, each run's rate with
 * its Wilson interval and n, "no verdicts yet"), the bad inputs (another agent, nine runs, forms mixed), and the
 * set's pass rate over time per version and tier with the agent version of each run.
 *
 * Reference intervals (scipy 1.17.1, binomtest(k, n).proportion_ci(method="wilson")):
 *   (3, 4) = (0.300642, 0.954413)   (4, 4) = (0.510109, 1.0)   (1, 3) = (0.061492, 0.792340)
 * rounded outwards to 4 decimals.
 */

const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const keys = ["q1", "q2", "q3", "q4"];
type V = "pass" | "fail" | null;

async function pastedRun(server: ServerInfo, setVersionId: string, verdicts: V[] | null) {
  const run = await ok(
    api(server, "POST", "/api/eval/runs", { body: { setVersionId, mode: "pasted", tier: "pipeline_live" } }),
    201,
  );
  if (!verdicts) return run as { id: string; shortId: string };
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

async function frozenSet(server: ServerInfo, name: string) {
  const agent = await ok(
    api(server, "POST", "/api/builder/agents", {
      body: { name: `${name} ${server.name}`, workflow: minimalWorkflow() },
    }),
    201,
  );
  const set = await ok(
    api(server, "POST", "/api/eval/sets", {
      body: { agentId: agent.agent.id, name, kind: "golden", gateThreshold: 3 },
    }),
    201,
  );
  const content = JSON.stringify(
    keys.map((key, i) => ({
      key,
      question: `Please recommend a breakfast dish and mention the price (${i + 1})`,
      expected_points: ["recommends a breakfast dish", "mentions the price"],
    })),
  );
  await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/import`, { body: { format: "json", content } }));
  const v1 = await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`));
  return { agentId: agent.agent.id as string, setId: set.id as string, v1: v1.id as string };
}

const query = (runs: Array<{ shortId: string }>, extra = "") =>
  `/api/eval/runs/compare?${runs.map((r) => `run=${r.shortId}`).join("&")}${extra}`;

for (const server of servers()) {
  describe(`many-run comparison and trend on ${server.name}`, () => {
    it("a grid of runs of one version, the bad inputs, and the set's trend", async () => {
      const { setId, v1 } = await frozenSet(server, "Many runs");
      const r1 = await pastedRun(server, v1, ["pass", "pass", "fail", "pass"]);
      const r2 = await pastedRun(server, v1, ["pass", "pass", "pass", "pass"]);
      const r3 = await pastedRun(server, v1, ["pass", "fail", "fail", null]);
      const empty = await pastedRun(server, v1, null);

      // given newest first: the answer orders the runs by creation, the last is the latest
      const grid = await ok(api(server, "GET", query([empty, r3, r1, r2])));
      expect(grid.runs.map((r: { shortId: string }) => r.shortId)).toEqual([
        r1.shortId,
        r2.shortId,
        r3.shortId,
        empty.shortId,
      ]);
      expect(grid.set).toMatchObject({ id: setId, name: "Many runs", version: 1 });
      expect(grid.runs[0]).toMatchObject({
        questions: 4,
        workflowVersion: 1,
        note: null,
        human: { pass: 3, n: 4, rate: 0.75, interval: { low: 0.3006, high: 0.9545 } },
      });
      expect(grid.runs[1].human).toEqual({ pass: 4, n: 4, rate: 1, interval: { low: 0.5101, high: 1 } });
      expect(grid.runs[2].human).toEqual({ pass: 1, n: 3, rate: 0.3333, interval: { low: 0.0614, high: 0.7924 } });
      // a run with no verdicts: 200, "no verdicts yet", no rate
      expect(grid.runs[3]).toMatchObject({ note: "no verdicts yet", human: { n: 0, rate: null, interval: null } });
      // q2 pass, pass, fail; q3 fail, pass, fail: changed. The latest run judged nothing: none fails in it
      expect(grid.counts).toEqual({ questions: 4, changed: 2, failingLatest: 0 });
      const q2 = grid.questions.find((q: { key: string }) => q.key === "q2");
      expect(q2.question).toContain("(2)");
      expect(q2.cells.map((c: { human: V }) => c.human)).toEqual(["pass", "pass", "fail", null]);
      expect(q2.cells[0].machine).not.toBeUndefined();

      // the filters: changed only; failing in the latest (without the empty run, r3 is the latest)
      const changed = await ok(api(server, "GET", query([r1, r2, r3], "&changed=true")));
      expect(changed.questions.map((q: { key: string }) => q.key)).toEqual(["q2", "q3"]);
      expect(changed.page).toEqual({ offset: 0, limit: null, total: 2 });
      const failing = await ok(api(server, "GET", query([r1, r2, r3], "&failing_latest=true&limit=1")));
      expect(failing.counts).toEqual({ questions: 4, changed: 2, failingLatest: 2 });
      expect(failing.page).toEqual({ offset: 0, limit: 1, total: 2 });
      expect(failing.questions).toHaveLength(1);

      // the two-run form still answers as before, with the paired table
      const two = await ok(api(server, "GET", `/api/eval/runs/compare?run_a=${r1.shortId}&run_b=${r2.shortId}`));
      expect(two.paired).toMatchObject({ onlyA: 0, onlyB: 1, n: 4 });
      expect(two.runs).toBeUndefined();

      // the same over tRPC
      const viaTrpc = await trpc(server).eval.runs.compare.query({ run: [r1.shortId, r2.shortId, r3.shortId] });
      expect("runs" in viaTrpc && viaTrpc.counts).toEqual({ questions: 4, changed: 2, failingLatest: 2 });

      // bad input: runs of another agent -> 400 RUNS_NOT_COMPARABLE with the reason
      const other = await frozenSet(server, "Other agent");
      const foreign = await pastedRun(server, other.v1, ["pass", "pass", "pass", "pass"]);
      const refused = await api(server, "GET", query([r1, foreign]));
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe("RUNS_NOT_COMPARABLE");
      expect(refused.body.error.message).toContain("different agents");
      expect(refused.body.error.details).toContainEqual({ run: foreign.shortId, field: "agent", value: other.agentId });
      const refusedTrpc = trpcErrorOf(
        await trpc(server)
          .eval.runs.compare.query({ run: [r1.shortId, foreign.shortId] })
          .catch((e) => e),
      );
      expect(refusedTrpc).toMatchObject({ httpStatus: 400, appCode: "RUNS_NOT_COMPARABLE" });

      // nine runs -> 400 naming the limit 8 (nine real runs of the version)
      const more = [];
      for (let i = 0; i < 5; i++) more.push(await pastedRun(server, v1, null));
      const nine = await api(server, "GET", query([r1, r2, r3, empty, ...more]));
      expect(nine.status).toBe(400);
      expect(nine.body.error.code).toBe("REQUEST_INVALID");
      expect(nine.body.error.message).toContain("at most 8 runs");
      // a version's runs of another version -> 400 too; the forms mixed or one run alone -> 400
      await ok(api(server, "POST", `/api/eval/sets/${setId}/versions`, { body: {} }), 201);
      const v2 = await ok(api(server, "POST", `/api/eval/sets/${setId}/versions/2/freeze`));
      const r4 = await pastedRun(server, v2.id, ["pass", "pass", "pass", "fail"]);
      const versions = await api(server, "GET", query([r1, r4]));
      expect(versions.status).toBe(400);
      expect(versions.body.error).toMatchObject({ code: "RUNS_NOT_COMPARABLE" });
      expect(versions.body.error.message).toContain("v2");
      for (const bad of [
        `/api/eval/runs/compare?run=${r1.shortId}`,
        `/api/eval/runs/compare?run=${r1.shortId}&run=${r1.shortId}`,
        `/api/eval/runs/compare?run=${r1.shortId}&run=${r2.shortId}&run_a=${r1.shortId}`,
        `/api/eval/runs/compare?run_a=${r1.shortId}&run_b=${r2.shortId}&changed=true`,
        `/api/eval/runs/compare?run_a=${r1.shortId}`,
      ]) {
        const r = await api(server, "GET", bad);
        expect(r.status, bad).toBe(400);
        expect(r.body.error.code, bad).toBe("REQUEST_INVALID");
      }
      expect((await api(server, "GET", `/api/eval/runs/compare?run=${r1.shortId}&run=R-ZZZZZ`)).status).toBe(404);

      // the trend: one series per version and tier, each run a point with its interval and agent version
      const trend = await ok(api(server, "GET", `/api/eval/sets/${setId}/trend`));
      expect(trend.set).toMatchObject({ id: setId, name: "Many runs", kind: "golden" });
      expect(trend.runs).toBe(10);
      expect(trend.series.map((s: { setVersion: number; tier: string }) => [s.setVersion, s.tier])).toEqual([
        [1, "pipeline_live"],
        [2, "pipeline_live"],
      ]);
      const points = trend.series[0].points;
      expect(points.map((p: { shortId: string }) => p.shortId).slice(0, 4)).toEqual([
        r1.shortId,
        r2.shortId,
        r3.shortId,
        empty.shortId,
      ]);
      expect(points[0]).toMatchObject({
        pass: 3,
        n: 4,
        questions: 4,
        rate: 0.75,
        interval: { low: 0.3006, high: 0.9545 },
        workflowVersion: 1,
        mode: "pasted",
      });
      expect(points[2]).toMatchObject({ pass: 1, n: 3, rate: 0.3333, interval: { low: 0.0614, high: 0.7924 } });
      expect(points[3]).toMatchObject({ n: 0, rate: null, interval: null });
      expect(trend.series[1].points[0]).toMatchObject({ shortId: r4.shortId, pass: 3, n: 4, rate: 0.75 });
      const trendTrpc = await trpc(server).eval.sets.trend.query({ id: setId });
      expect(trendTrpc.series[0]!.points[0]!.interval).toEqual({ low: 0.3006, high: 0.9545 });
      expect((await api(server, "GET", "/api/eval/sets/nope/trend")).status).toBe(404);
    });
  });
}
