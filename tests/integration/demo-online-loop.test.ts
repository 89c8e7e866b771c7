import { execFile } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import agentJson from "@/server/seed/meal-recommendation/agent.json";
import { ROOT } from "../../scripts/lib/app-server";
import { api, servers, ok } from "./client";
import type { ServerInfo } from "./global-setup";

/**
 * `npm run demo:online-loop` against a started server on both databases (offline provider; the harness's stand-in
 * for the owner's API answers the sample agent's live queries). Each test fills an agent of its own (a copy of the
 * sample agent, `--agent`), so the legs and the tests never share demo data: ten frozen pool samples from the demo's
 * low-scored traces with expectations, a judged run, Bad Cases, a shadow with disagreements; a second run makes
 * nothing; a run that stopped halfway is completed by the next one.
 */
function demo(server: ServerInfo, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), path.join(ROOT, "scripts/demo-online-loop.ts"), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, FLOWBENCH_URL: server.url, FLOWBENCH_TOKEN: server.adminToken },
        timeout: 280_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

async function sampleAgentCopy(server: ServerInfo, label: string): Promise<{ id: string; name: string }> {
  const name = `Demo ${label} ${Date.now()}`;
  const created = await ok(
    api(server, "POST", "/api/builder/agents", {
      body: { name, description: agentJson.description, workflow: agentJson.workflow },
    }),
    201,
  );
  await ok(api(server, "POST", `/api/builder/agents/${created.agent.id}/publish`, { body: { version: 1 } }));
  return { id: created.agent.id, name };
}

/** Everything the demo makes, counted, so a second run can be shown to make nothing. */
async function snapshot(server: ServerInfo, agentId: string, poolId: string) {
  const count = async (p: string) => (await ok(api(server, "GET", p))).items.length;
  const detail = await ok(api(server, "GET", `/api/eval/sets/${poolId}`));
  const runs = (await ok(api(server, "GET", `/api/eval/runs?setId=${poolId}&limit=200`))).items;
  const items = runs.length ? (await ok(api(server, "GET", `/api/eval/runs/${runs[0].id}/items?limit=200`))).items : [];
  const shadow = (await ok(api(server, "GET", `/api/eval/shadow/${agentId}`))).config;
  return {
    chats: await count(`/api/traces?agentId=${agentId}&source=chat&limit=200`),
    feedback: (
      await ok(api(server, "GET", `/api/traces?agentId=${agentId}&source=chat&minScore=1&limit=200`))
    ).items.map((t: any) => t.feedbackSummary.count),
    shadowRuns: await count(`/api/traces?agentId=${agentId}&source=shadow&limit=200`),
    versions: detail.versions.map((v: any) => [v.version, v.status, v.sampleCount]),
    runs: runs.map((r: any) => r.id),
    verdicts: items.map((i: any) => [i.id, i.verdictVersion, i.badCase?.id ?? null]),
    badCases: await count(`/api/eval/bad-cases?agentId=${agentId}&limit=200`),
    shadowUpdatedAt: shadow?.updatedAt ?? null,
  };
}

async function expectCompleteDemo(server: ServerInfo, agent: { id: string; name: string }) {
  const pool = (await ok(api(server, "GET", `/api/eval/sets?agentId=${agent.id}&kind=regression_pool`))).items.find(
    (s: { name: string }) => s.name === `${agent.name} online regression pool (demo)`,
  );
  expect(pool).toBeTruthy();
  const detail = await ok(api(server, "GET", `/api/eval/sets/${pool.id}`));
  expect(detail.versions.map((v: any) => [v.version, v.status])).toEqual([[1, "frozen"]]);
  // ten samples, each from one of the demo's low-scored traces, with its expectations
  const low = (
    await ok(api(server, "GET", `/api/traces?agentId=${agent.id}&source=chat&maxScore=2&limit=200`))
  ).items.map((t: { id: string }) => t.id);
  const samples = (await ok(api(server, "GET", `/api/eval/sets/${pool.id}/versions/1/samples?limit=200`)))
    .items as Array<{
    sourceTraceId: string;
    expectedPoints: string[];
    script: unknown[] | null;
    referenceAnswer: string | null;
  }>;
  expect(samples).toHaveLength(10);
  expect(low).toHaveLength(10);
  expect(samples.map((s) => s.sourceTraceId).sort()).toEqual([...low].sort());
  expect(samples.every((s) => s.expectedPoints.length === 2 && s.referenceAnswer)).toBe(true);
  expect(samples.filter((s) => s.script).length).toBe(2); // the two multi-turn conversations
  // one run at pipeline_live, every answer judged, a Bad Case for every fail
  const runs = (await ok(api(server, "GET", `/api/eval/runs?setId=${pool.id}`))).items;
  expect(runs).toHaveLength(1);
  expect(runs[0]).toMatchObject({ tier: "pipeline_live", mode: "in_platform", progress: { total: 10, judged: 10 } });
  const items = (await ok(api(server, "GET", `/api/eval/runs/${runs[0].id}/items?limit=200`))).items as Array<{
    verdict: { verdict: string } | null;
    badCase: { id: string } | null;
    suggestion: unknown;
  }>;
  expect(items.every((i) => i.verdict && i.suggestion)).toBe(true);
  const fails = items.filter((i) => i.verdict!.verdict === "fail");
  expect(fails.length).toBeGreaterThan(0);
  expect(fails.every((i) => i.badCase)).toBe(true);
  // the shadow: the demo's candidate scene detector, replayed, disagreeing on the "morning" question
  const config = (await ok(api(server, "GET", `/api/eval/shadow/${agent.id}`))).config;
  expect(config).toMatchObject({
    candidateVersion: null,
    candidateNote: expect.stringContaining("demo-online-loop"),
    liveRef: "{{detect_scene.result.scene}}",
  });
  const report = await ok(api(server, "GET", `/api/eval/shadow/${agent.id}/report`));
  expect(report.compared).toBeGreaterThanOrEqual(13);
  expect(report.matrix).toEqual(
    expect.arrayContaining([expect.objectContaining({ live: "breakfast", candidate: "brunch" })]),
  );
  expect(report.disagreements.map((d: { message: string }) => d.message)).toContain(
    "Something light in the morning before the gym",
  );
  return pool.id as string;
}

for (const server of servers()) {
  describe(`npm run demo:online-loop on ${server.name}`, () => {
    it("fills every tab; a second run makes nothing", async () => {
      const agent = await sampleAgentCopy(server, "twice");
      const first = await demo(server, ["--agent", agent.id]);
      expect(first.code, first.out).toBe(0);
      expect(first.out).toMatch(/1\. online answers with feedback: 13 made, 0 found \(10 scored 1-2\)/);
      expect(first.out).toMatch(
        /v1: 10 samples from those traces, frozen \(pool made, 10 sample\(s\) added, frozen now\)/,
      );
      expect(first.out).toContain(`/eval?tab=online-loop&agent=${agent.id}`);
      const poolId = await expectCompleteDemo(server, agent);
      const before = await snapshot(server, agent.id, poolId);

      const second = await demo(server, ["--agent", agent.name]);
      expect(second.code, second.out).toBe(0);
      expect(second.out).toMatch(/0 made, 13 found/);
      expect(second.out).toMatch(/0 sample\(s\) added, found frozen/);
      expect(second.out).toMatch(/run R-\w+ \(pipeline_live\) found/);
      expect(second.out).toMatch(/verdicts: 0 given now, 10 found/);
      expect(second.out).toMatch(/Bad Cases: 0 made/);
      expect(second.out).toMatch(/intent shadow found, found replayed/);
      expect(await snapshot(server, agent.id, poolId)).toEqual(before);
    }, 300_000);

    it("a run that stopped halfway is completed by the next one, which adds only what was missing", async () => {
      const agent = await sampleAgentCopy(server, "resume");
      const early = await demo(server, ["--agent", agent.id, "--stop-after", "traffic"]);
      expect(early.code, early.out).toBe(0);
      expect(early.out).not.toContain("2. regression pool");
      // an earlier run that died while filling the pool: the pool exists with four of the ten samples, not frozen
      const low = (await ok(api(server, "GET", `/api/traces?agentId=${agent.id}&source=chat&maxScore=2&limit=200`)))
        .items as Array<{ id: string }>;
      const pool = await ok(
        api(server, "POST", "/api/eval/sets", {
          body: {
            agentId: agent.id,
            name: `${agent.name} online regression pool (demo)`,
            kind: "regression_pool",
            gateThreshold: 0,
          },
        }),
        201,
      );
      for (const t of low.slice(0, 4))
        await ok(
          api(server, "POST", `/api/eval/sets/${pool.id}/pool`, {
            body: { traceId: t.id, expectedPoints: ["kept as written", "by the earlier run"] },
          }),
          201,
        );

      const middle = await demo(server, ["--agent", agent.id, "--stop-after", "run"]);
      expect(middle.code, middle.out).toBe(0);
      expect(middle.out).toMatch(/0 made, 13 found/);
      expect(middle.out).toMatch(/v1: 10 samples from those traces, frozen \(6 sample\(s\) added, frozen now\)/);
      expect(middle.out).not.toContain("4. verdicts");
      const samples = (await ok(api(server, "GET", `/api/eval/sets/${pool.id}/versions/1/samples?limit=200`)))
        .items as Array<{ expectedPoints: string[] }>;
      expect(samples.filter((s) => s.expectedPoints[0] === "kept as written")).toHaveLength(4); // what was there is not touched

      const last = await demo(server, ["--agent", agent.id]);
      expect(last.code, last.out).toBe(0);
      expect(last.out).toMatch(/run R-\w+ \(pipeline_live\) found/);
      expect(last.out).toMatch(/verdicts: 10 given now, 0 found/);
      expect(last.out).toMatch(/intent shadow made, replayed over \d+ chats/);
      expect(await expectCompleteDemo(server, agent)).toBe(pool.id);
    }, 300_000);
  });
}
