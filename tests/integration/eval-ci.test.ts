import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/app-server";
import { api, minimalWorkflow, ok, shapeServers } from "./client";
import type { ServerInfo } from "./global-setup";

/**
 * The gate in CI (issue 25), shaped like the workflow in docs/ci/github-actions.yml, against the started server the
 * other evaluation suites use: `flowbench-eval run` starts a run and waits until it is answered, then
 * `check_eval_golden_gate --wait` polls while this test gives the verdicts over REST, as people would; exit 0 once
 * they pass it, 3 when the wait runs out, 1 when they fail it; its JUnit file validated against docs/ci/junit.xsd with
 * xmllint, its Markdown summary read. The CLIs only talk REST, the same code on either database: one server
 * (shapeServers), so the suite costs one leg's time.
 */
type Cli = { code: number; stdout: string; stderr: string };
type Running = { done: Promise<Cli>; stderr: () => string };

const INTERVAL = "0.3"; // seconds between polls: the test's people answer within a second

function start(name: "check_eval_golden_gate" | "flowbench-eval", args: string[], server: ServerInfo): Running {
  const child = spawn(process.execPath, [path.join(ROOT, "bin", `${name}.mjs`), ...args], {
    cwd: ROOT,
    env: { ...process.env, FLOWBENCH_URL: server.url, FLOWBENCH_TOKEN: server.adminToken },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b) => (stdout += b));
  child.stderr.on("data", (b) => (stderr += b));
  const timer = setTimeout(() => child.kill(), 120_000);
  const done = new Promise<Cli>((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    }),
  );
  return { done, stderr: () => stderr };
}
const cli = (name: "check_eval_golden_gate" | "flowbench-eval", args: string[], server: ServerInfo) =>
  start(name, args, server).done;

async function until<T>(what: string, f: () => Promise<T | undefined> | T | undefined, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function xmllint(file: string) {
  const r = spawnSync("xmllint", ["--noout", "--schema", path.join(ROOT, "docs/ci/junit.xsd"), file], {
    encoding: "utf8",
  });
  if (r.error) throw new Error(`xmllint is needed (apt-get install libxml2-utils): ${r.error.message}`);
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-eval-ci-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

for (const server of shapeServers("pglite")) {
  describe(`the gate in CI on ${server.name}`, () => {
    let agentId: string;
    let setId: string;
    let versionId: string;

    beforeAll(async () => {
      const created = await ok(
        api(server, "POST", "/api/builder/agents", {
          body: { name: `ci agent ${Date.now()}`, workflow: minimalWorkflow() },
        }),
        201,
      );
      agentId = created.agent.id;
      const set = await ok(
        api(server, "POST", "/api/eval/sets", {
          body: { agentId, name: "CI golden", kind: "golden", gateThreshold: 2 },
        }),
        201,
      );
      setId = set.id;
      const rows = [1, 2, 3].map((i) => ({
        key: `q${i}`,
        question: `Recommend a breakfast dish and its price (${i})`,
        expected_points: ["recommends a breakfast dish", "mentions the price"],
      }));
      await ok(
        api(server, "POST", `/api/eval/sets/${set.id}/versions/1/import`, {
          body: { format: "json", content: JSON.stringify(rows) },
        }),
      );
      versionId = (await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`))).id;
    });

    const items = async (run: string) =>
      (await ok(api(server, "GET", `/api/eval/runs/${run}/items`))).items as Array<{ id: string; key: string }>;
    const verdict = (run: string, itemId: string, body: Record<string, string>) =>
      ok(api(server, "PUT", `/api/eval/runs/${run}/items/${itemId}/verdict`, { body }));

    it("start -> wait for people -> gate: exit 0 once they pass it; JUnit valid, Markdown with links", async () => {
      const started = await cli(
        "flowbench-eval",
        [
          "run",
          "--set",
          setId,
          "--tier",
          "pipeline_live",
          "--environment",
          "pr-1",
          "--wait-answered",
          "90",
          "--interval",
          INTERVAL,
        ],
        server,
      );
      expect(started.code, started.stderr).toBe(0);
      const run = started.stdout.trim();
      expect(run).toMatch(/^R-[0-9A-Z]{5}$/); // stdout is the Run ID alone: RUN=$(npx flowbench-eval run ...)
      expect(started.stderr).toContain(`${run} awaiting_review: 3/3 done (3 answered, 0 failed)`);
      const detail = await ok(api(server, "GET", `/api/eval/runs/${run}`));
      expect(detail).toMatchObject({
        status: "awaiting_review",
        mode: "in_platform",
        tier: "pipeline_live",
        environment: "pr-1",
      });

      const junit = path.join(dir, "pass", "gate.xml"); // a folder that does not exist yet
      const markdown = path.join(dir, "pass", "gate.md");
      const gate = start(
        "check_eval_golden_gate",
        ["--run-id", run, "--wait", "90", "--interval", INTERVAL, "--junit", junit, "--markdown", markdown],
        server,
      );
      // the gate is waiting (pending, said on stderr) before anyone has judged
      await until("the gate's first progress line", () => gate.stderr().includes("PENDING") || undefined);
      expect(gate.stderr()).toContain(`PENDING ${run}: 0/3 passes, threshold 2, 3 unjudged`);
      const [a, b, c] = await items(run);
      await verdict(run, a!.id, { verdict: "pass" });
      await verdict(run, b!.id, { verdict: "fail", basis: "the price is missing", attribution: "generation" });
      await verdict(run, c!.id, { verdict: "pass" });
      const result = await gate.done;
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^PASS ${run} `));
      expect(result.stderr).toMatch(new RegExp(`PASS ${run}: 2/3 passes, threshold 2, 0 unjudged`));

      expect(xmllint(junit)).toMatchObject({ code: 0 });
      const xml = fs.readFileSync(junit, "utf8");
      expect(xml).toContain('tests="4" failures="1" errors="0"');
      expect(xml).toContain(`<property name="run.shortId" value="${run}"/>`);
      expect(xml).toContain(`<property name="run.id" value="${detail.id}"/>`);
      expect(xml).toContain('<property name="threshold" value="2"/>');
      expect(xml).toContain('<property name="set.version" value="1"/>');
      expect(xml).toContain('<failure message="the price is missing" type="generation">');
      expect(xml).toContain('<testcase name="release gate: PASS"');

      const md = fs.readFileSync(markdown, "utf8");
      expect(md).toContain(`### ✅ Release gate PASS: run ${run}`);
      // Wilson score interval of 2 of 3 = (0.2077, 0.9385), computed with python3 from the Wilson formula at z = 1.959964
      expect(md).toContain("| human-confirmed passes | **2** of 3 (95 % interval 21-94 %, over 3 judged) |");
      expect(md).toContain(`[Open the run](${server.url}/eval?tab=runs&agent=${agentId}&run=${run})`);
      expect(md).toContain(
        `[Open the annotation queue](${server.url}/eval?tab=annotation&agent=${agentId}&run=${run})`,
      );
      expect(md).toContain("the price is missing | generation |");
      // the links open: the page answers (it asks to sign in without a session)
      const page = await fetch(`${server.url}/eval?tab=runs&agent=${agentId}&run=${run}`, { redirect: "manual" });
      expect([200, 307]).toContain(page.status);
    });

    it("exit 3 when the wait runs out with questions unjudged, 1 once people fail it; 2 on bad input", async () => {
      const started = await cli("flowbench-eval", ["run", "--set-version", versionId, "--json"], server);
      expect(started.code, started.stderr).toBe(0);
      const run = JSON.parse(started.stdout) as { id: string; shortId: string; tier: string };
      expect(run.tier).toBe("pipeline");

      const junit = path.join(dir, "pending.xml");
      const markdown = path.join(dir, "pending.md");
      const t0 = Date.now();
      const pending = await cli(
        "check_eval_golden_gate",
        ["--run-id", run.shortId, "--wait", "1.5", "--interval", INTERVAL, "--junit", junit, "--markdown", markdown],
        server,
      );
      expect(pending.code, pending.stderr).toBe(3);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(1_500);
      expect(pending.stdout).toMatch(/^PENDING /);
      expect(pending.stderr).toContain("still PENDING after 1.5 s: waiting for ");
      expect(xmllint(junit)).toMatchObject({ code: 0 });
      const pendingXml = fs.readFileSync(junit, "utf8");
      expect(pendingXml.match(/<error message="no human verdict yet" type="unjudged">/g)).toHaveLength(3);
      expect(pendingXml).toContain('type="gate_pending"');
      expect(fs.readFileSync(markdown, "utf8")).toContain("#### Still missing\n- 3 questions without a verdict");

      // people fail two of three: the threshold (2) is out of reach even if the third passes, decided at once
      await until("the run answered", async () => {
        const r = await ok(api(server, "GET", `/api/eval/runs/${run.id}`));
        return r.status === "awaiting_review" || undefined;
      });
      const [a, b] = await items(run.id);
      await verdict(run.id, a!.id, { verdict: "fail", basis: "no dish <named> & no price", attribution: "data" });
      await verdict(run.id, b!.id, { verdict: "fail", basis: "wrong price", attribution: "generation" });
      const failed = await cli(
        "check_eval_golden_gate",
        ["--run-id", run.id, "--wait", "90", "--interval", INTERVAL, "--junit", junit, "--markdown", markdown],
        server,
      );
      expect(failed.code, failed.stderr).toBe(1);
      expect(failed.stdout).toMatch(/^FAIL /);
      expect(failed.stdout).toContain("GATE_OUT_OF_REACH");
      expect(xmllint(junit)).toMatchObject({ code: 0 });
      const xml = fs.readFileSync(junit, "utf8");
      // two failures and the decision; one question still without a verdict
      expect(xml).toContain('tests="4" failures="3" errors="1"');
      expect(xml).toContain('<failure message="no dish &lt;named&gt; &amp; no price" type="data">');
      expect(xml).toContain('type="gate_fail">GATE_OUT_OF_REACH: ');
      const md = fs.readFileSync(markdown, "utf8");
      expect(md).toContain(`### ❌ Release gate FAIL: run ${run.shortId}`);
      expect(md).toContain("#### Failing questions (2)");
      expect(md).toContain("no dish \\<named\\> & no price | data |");

      // usage and refusals: exit 2 with the reason
      const badWait = await cli("check_eval_golden_gate", ["--run-id", run.id, "--wait", "soon"], server);
      expect(badWait.code).toBe(2);
      expect(badWait.stderr).toContain("--wait must be a number of seconds");
      const draft = await ok(api(server, "POST", `/api/eval/sets/${setId}/versions`, { body: {} }), 201);
      const notFrozen = await cli("flowbench-eval", ["run", "--set-version", draft.id], server);
      expect(notFrozen.code).toBe(2);
      expect(notFrozen.stderr).toContain("400 SET_VERSION_NOT_FROZEN");
      const unknownSet = await cli("flowbench-eval", ["run", "--set", "no-such-set"], server);
      expect(unknownSet.code).toBe(2);
      expect(unknownSet.stderr).toContain("404");
      const both = await cli("flowbench-eval", ["run", "--set", setId, "--set-version", versionId], server);
      expect(both.code).toBe(2);
      expect(both.stderr).toContain("give one of --set-version or --set");
    });
  });
}
