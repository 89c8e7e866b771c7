import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/sample-app/src/config";
import { createLogger } from "@/sample-app/src/logger";
import { startApp, type RunningApp } from "@/sample-app/src/server";
import { SEED_SCENES } from "@/sample-app/src/seed-data";
import { ROOT, startServer, type StartedServer } from "../../scripts/lib/app-server";
import { api, ok } from "./client";

/**
 * The README walk-through, end to end: the platform (embedded database, sample agent seeded) and the meal-scenes
 * sample service; check_eval_wave_c_size on the gate set; the gate set answered at pipeline_live; suggestions
 * adopted; spot-checked and decided by people; check_eval_golden_gate at 26/30 (pass) and 25/30 (fail).
 */
let sample: RunningApp;
let platform: StartedServer;
const dirs: string[] = [];

function tmp(prefix: string) {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
}

function cli(name: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, "bin", `${name}.mjs`), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, FLOWBENCH_URL: platform.url, FLOWBENCH_TOKEN: platform.adminToken },
        timeout: 60_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  sample = await startApp(
    { ...loadConfig({ DATABASE_URL: `pglite:${tmp("meal-scenes-it-")}/db`, LOG_LEVEL: "error" }), port: 0 },
    { logger: createLogger("error") },
  );
  platform = await startServer("sample-gate", `pglite:${tmp("flowbench-sample-gate-")}`, {
    WEBHOOK_BASE_URL: sample.url,
    FLOWBENCH_SEED_SAMPLE_AGENT: "on",
  });
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  await sample?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe("sample agent gate walk-through (PGlite + meal-scenes service)", () => {
  it("runs the gate set at pipeline_live and gates on human-confirmed passes only", async () => {
    // the seeded agent and its frozen gate set are there as soon as the server says it is ready (issue 28: ready
    // means every start-up step is done; the seed ran in the background after "ready" before)
    const agent: { id: string } | undefined = (
      await ok(api(platform, "GET", "/api/builder/agents?q=Meal%20recommendation", { token: platform.adminToken }))
    ).items[0];
    const set: any = agent
      ? (await ok(api(platform, "GET", `/api/eval/sets?agentId=${agent.id}`))).items[0]
      : undefined;
    const frozen: { id: string } | undefined = set
      ? (await ok(api(platform, "GET", `/api/eval/sets/${set.id}`))).versions.find(
          (v: { status: string }) => v.status === "frozen",
        )
      : undefined;
    expect(agent, "the sample agent was seeded").toBeTruthy();
    expect(frozen, "its gate set was frozen").toBeTruthy();
    expect(set).toMatchObject({ kind: "golden", gateThreshold: 26 });
    const size = await cli("check_eval_wave_c_size", ["--set-id", set.id]);
    expect(size.code, size.stdout + size.stderr).toBe(0);

    // online chat reaches the sample service through WEBHOOK_BASE_URL
    const chat = await ok(
      api(platform, "POST", `/api/agents/${agent!.id}/chat`, { body: { message: "What's good for breakfast?" } }),
    );
    const breakfast = SEED_SCENES.find((s) => s.id === "breakfast")!.dishes.map((d) => d.id);
    expect(chat.payload.goods_list.map((g: { id: string }) => g.id).sort()).toEqual([...breakfast].sort());

    // a run of the frozen version at pipeline_live
    const run = await ok(
      api(platform, "POST", "/api/eval/runs", {
        body: { setVersionId: frozen!.id, mode: "in_platform", tier: "pipeline_live", environment: "walk-through" },
      }),
      201,
    );
    await ok(api(platform, "POST", `/api/eval/runs/${run.shortId}/start`));
    let status = "";
    for (let i = 0; i < 480 && status !== "awaiting_review"; i++) {
      status = (await ok(api(platform, "GET", `/api/eval/runs/${run.id}`))).status;
      if (status !== "awaiting_review") await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe("awaiting_review");
    const items = (await ok(api(platform, "GET", `/api/eval/runs/${run.id}/items?limit=100`))).items as Array<{
      id: string;
      payload: { goods_list?: unknown[] } | null;
      error: string | null;
    }>;
    expect(items).toHaveLength(30);
    expect(items.every((i) => !i.error && (i.payload?.goods_list?.length ?? 0) > 0)).toBe(true);

    // machine suggestions never count: the gate fails before any verdict
    expect((await cli("check_eval_golden_gate", ["--run-id", run.shortId])).code).toBe(1);
    const adopted = await ok(api(platform, "POST", `/api/eval/runs/${run.id}/adopt`, { body: {} }));
    expect(Array.isArray(adopted.spotCheck)).toBe(true);

    // people decide: 26 passes, 4 fails with basis and attribution
    for (const [i, item] of items.entries()) {
      const body =
        i < 4
          ? { verdict: "fail", basis: "recommends a dish that does not fit the request", attribution: "generation" }
          : { verdict: "pass" };
      await ok(api(platform, "PUT", `/api/eval/runs/${run.id}/items/${item.id}/verdict`, { body }));
    }
    const pass = await cli("check_eval_golden_gate", ["--run-id", run.shortId, "--json"]);
    expect(pass.code, pass.stdout + pass.stderr).toBe(0);
    expect(JSON.parse(pass.stdout)).toMatchObject({ passed: true });

    await ok(
      api(platform, "PUT", `/api/eval/runs/${run.id}/items/${items[4]!.id}/verdict`, {
        body: { verdict: "fail", basis: "no price given", attribution: "generation" },
      }),
    );
    const fail = await cli("check_eval_golden_gate", ["--run-id", run.shortId]);
    expect(fail.code).toBe(1);

    const report = await ok(api(platform, "GET", `/api/eval/runs/${run.id}/report`));
    expect(report.run.tier).toBe("pipeline_live");
    expect(report.human).toMatchObject({ pass: 25, fail: 5, unjudged: 0 });
  }, 300_000);

  it("npm run demo:online-loop on the seeded sample agent, with the meal-scenes service: the demo data once (ten pool samples from low-scored traces, a judged run, Bad Cases, the shadow)", async () => {
    const demo = () =>
      new Promise<{ code: number; out: string }>((resolve) => {
        execFile(
          process.execPath,
          [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), path.join(ROOT, "scripts/demo-online-loop.ts")],
          {
            cwd: ROOT,
            env: { ...process.env, FLOWBENCH_URL: platform.url, FLOWBENCH_TOKEN: platform.adminToken },
            timeout: 300_000,
          },
          (error, stdout, stderr) =>
            resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
        );
      });
    const first = await demo();
    expect(first.code, first.out).toBe(0);
    expect(first.out).toMatch(/v1: 10 samples from those traces, frozen/);
    const agent = (await ok(api(platform, "GET", "/api/builder/agents?q=Meal%20recommendation"))).items[0];
    const pool = (await ok(api(platform, "GET", `/api/eval/sets?agentId=${agent.id}&kind=regression_pool`))).items.find(
      (s: { name: string }) => s.name.includes("(demo)"),
    );
    const samples = (await ok(api(platform, "GET", `/api/eval/sets/${pool.id}/versions/1/samples`))).items as Array<{
      sourceTraceId: string | null;
      expectedPoints: string[];
      script: unknown[] | null;
      referenceAnswer: string | null;
    }>;
    expect(samples).toHaveLength(10);
    expect(samples.every((s) => s.sourceTraceId && s.expectedPoints.length === 2 && s.referenceAnswer)).toBe(true);
    expect(samples.filter((s) => s.script).length).toBe(2); // the two multi-turn conversations
    const runs = (await ok(api(platform, "GET", `/api/eval/runs?setId=${pool.id}`))).items;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ tier: "pipeline_live", progress: { total: 10, judged: 10 } });
    const badCases = (await ok(api(platform, "GET", `/api/eval/bad-cases?runId=${runs[0].id}`))).items;
    expect(badCases.length).toBeGreaterThan(0);
    // every lead of the demo traffic now says where it went
    const leads = (await ok(api(platform, "GET", `/api/eval/online/leads?agentId=${agent.id}&status=in_pool`))).items;
    expect(leads).toHaveLength(10);
    // the intent shadow: replayed, with disagreements on the "morning" questions
    const shadow = await ok(api(platform, "GET", `/api/eval/shadow/${agent.id}/report`));
    expect(shadow.compared).toBeGreaterThan(0);
    expect(
      shadow.matrix.some(
        (m: { live: string; candidate: string }) => m.live === "breakfast" && m.candidate === "brunch",
      ),
    ).toBe(true);

    const second = await demo();
    expect(second.code, second.out).toBe(0);
    expect(second.out).toMatch(/0 made, 13 found/); // each step found what the first run made
    expect((await ok(api(platform, "GET", `/api/eval/sets/${pool.id}/versions/1/samples`))).items).toHaveLength(10);
    expect((await ok(api(platform, "GET", `/api/eval/runs?setId=${pool.id}`))).items).toHaveLength(1);
  }, 300_000);
});
