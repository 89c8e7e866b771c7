import { execFile } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { api, minimalWorkflow, servers, tokenWithRole, trpc, ok } from "./client";
import { ROOT } from "../../scripts/lib/app-server";
import type { ServerInfo } from "./global-setup";

/** The evaluation center over real HTTP, on the embedded database and on PostgreSQL. */

type Cli = { code: number; stdout: string; stderr: string };
function cli(
  name: "check_eval_golden_gate" | "check_eval_wave_c_size",
  args: string[],
  env: Record<string, string>,
): Promise<Cli> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, "bin", `${name}.mjs`), ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

function questions(n: number, scripted = 0) {
  return Array.from({ length: n }, (_, i) => ({
    key: `q${String(i + 1).padStart(2, "0")}`,
    question: `Please recommend a breakfast dish and mention the price (${i + 1})`,
    expected_points: ["recommends a breakfast dish", "mentions the price"],
    classification: i % 2 ? "breakfast" : "price",
    ...(i < scripted
      ? {
          script: [
            { role: "system", content: "The user is vegetarian.", preset: true },
            { role: "user", content: `Hello (${i + 1})`, preset: false },
            { role: "user", content: `Recommend a breakfast dish with its price (${i + 1})`, preset: false },
          ],
        }
      : {}),
  }));
}

async function frozenSet(
  server: ServerInfo,
  agentId: string,
  opts: { n: number; scripted?: number; threshold: number; kind?: string; name?: string; auditRate?: number },
) {
  const set = await ok(
    api(server, "POST", "/api/eval/sets", {
      body: {
        agentId,
        name: opts.name ?? "Golden",
        kind: opts.kind ?? "golden",
        gateThreshold: opts.threshold,
        ...(opts.auditRate !== undefined ? { auditRate: opts.auditRate } : {}),
      },
    }),
    201,
  );
  await ok(
    api(server, "POST", `/api/eval/sets/${set.id}/versions/1/import`, {
      body: { format: "json", content: JSON.stringify(questions(opts.n, opts.scripted)) },
    }),
  );
  const v = await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`));
  return { set, versionId: v.id as string };
}

async function waitForStatus(server: ServerInfo, runId: string, status: string, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const run = await ok(api(server, "GET", `/api/eval/runs/${runId}`));
    if (run.status === status) return run;
    if (Date.now() > until) throw new Error(`run ${runId} stayed ${run.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

for (const server of servers()) {
  describe(`evaluation center on ${server.name}`, () => {
    let agentId: string;
    const env = { FLOWBENCH_URL: server.url, FLOWBENCH_TOKEN: server.adminToken };

    it("sets, versions and samples: freeze makes a version immutable; a new version is an editable copy", async () => {
      const created = await ok(
        api(server, "POST", "/api/builder/agents", {
          body: { name: `eval agent ${server.name}`, workflow: minimalWorkflow() },
        }),
        201,
      );
      agentId = created.agent.id;
      const set = await ok(
        api(server, "POST", "/api/eval/sets", { body: { agentId, name: "CRUD", kind: "golden", gateThreshold: 1 } }),
        201,
      );
      expect(set.versions).toEqual([expect.objectContaining({ version: 1, status: "draft", sampleCount: 0 })]);
      const sample = await ok(
        api(server, "POST", `/api/eval/sets/${set.id}/versions/1/samples`, {
          body: { question: "推荐什么早餐?", expectedPoints: ["推荐了早餐菜品", "给出价格"] },
        }),
        201,
      );
      expect(sample).toMatchObject({ key: "q001", position: 1 });
      const bad = await api(server, "POST", `/api/eval/sets/${set.id}/versions/1/import`, {
        body: { format: "csv", content: "key,question,expected_points\nq2,,x\n" },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({
        code: "IMPORT_INVALID",
        details: [{ row: 2, field: "question", message: "question is required" }],
      });
      // a \u0000 escape becomes NUL only when the file is decoded: a row error naming the field, not a 500 (every
      // format; and for pasted answers below), and nothing is imported
      for (const [format, content, row, field] of [
        [
          "json",
          '[{"question":"fine","expected_points":["a"]},{"question":"a\\u0000b","expected_points":["a"]}]',
          2,
          "question",
        ],
        [
          "jsonl",
          '{"question":"fine","expected_points":["a"]}\n{"question":"x","expected_points":["\\ud800"]}',
          2,
          "expected_points[0]",
        ],
        [
          "csv",
          'question,expected_points,script\nfine,a,\nq,a,"[{""role"":""user"",""content"":""x\\u0000""}]"',
          3,
          "script[0].content",
        ],
      ] as const) {
        const nul = await api(server, "POST", `/api/eval/sets/${set.id}/versions/1/import`, {
          body: { format, content },
        });
        expect(nul.status, `${format}: ${nul.text}`).toBe(400);
        expect(nul.body.error).toMatchObject({ code: "IMPORT_INVALID", details: [{ row, field }] });
      }
      expect((await ok(api(server, "GET", `/api/eval/sets/${set.id}/versions/1/samples`))).items).toHaveLength(1);
      // integers that reach a 32-bit column: 400, not a database error
      const from = await api(server, "POST", `/api/eval/sets/${set.id}/versions`, { body: { from: 1e10 } });
      expect(from.status).toBe(400);
      expect(from.body.error).toMatchObject({
        code: "REQUEST_INVALID",
        details: [expect.objectContaining({ path: "/from" })],
      });
      expect(
        (await ok(api(server, "PATCH", `/api/eval/samples/${sample.id}`, { body: { classification: "breakfast" } })))
          .classification,
      ).toBe("breakfast");
      const frozen = await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`));
      expect(frozen).toMatchObject({ status: "frozen", sampleCount: 1 });
      const edit = await api(server, "PATCH", `/api/eval/samples/${sample.id}`, { body: { question: "changed" } });
      expect(edit.status).toBe(409);
      expect(edit.body.error.code).toBe("SET_VERSION_FROZEN");
      expect(
        (await api(server, "POST", `/api/eval/sets/${set.id}/versions/1/samples`, { body: { question: "more" } }))
          .status,
      ).toBe(409);
      expect((await api(server, "DELETE", `/api/eval/samples/${sample.id}`)).status).toBe(409);
      const v2 = await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions`, { body: {} }), 201);
      expect(v2).toMatchObject({ version: 2, status: "draft", sampleCount: 1 });
      const samples = await ok(api(server, "GET", `/api/eval/sets/${set.id}/versions/2/samples`));
      expect(
        (
          await ok(
            api(server, "PATCH", `/api/eval/samples/${samples.items[0].id}`, { body: { question: "changed in v2" } }),
          )
        ).question,
      ).toBe("changed in v2");
      const csv = await api(server, "GET", `/api/eval/sets/${set.id}/versions/2/export?format=csv`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-type")).toContain("text/csv");
      expect(csv.text).toContain("changed in v2");
      const draftRun = await api(server, "POST", "/api/eval/runs", {
        body: { setVersionId: v2.id, mode: "pasted", tier: "pipeline" },
      });
      expect(draftRun.status).toBe(400);
      expect(draftRun.body.error.code).toBe("SET_VERSION_NOT_FROZEN");
      expect(
        (await ok(api(server, "GET", `/api/eval/sets?agentId=${agentId}`))).items.map((s: { id: string }) => s.id),
      ).toContain(set.id);
    });

    it("the five spec endpoints, pasted answers, adopt, verdicts, gate CLI, compare, usage, bad cases", async () => {
      // no audit of adopted passes on this set (eval-audit.test.ts has its own): the gate output says so
      const { versionId, set } = await frozenSet(server, agentId, { n: 30, scripted: 2, threshold: 26, auditRate: 0 });
      // POST /api/eval/runs
      const run = await ok(
        api(server, "POST", "/api/eval/runs", {
          body: { setVersionId: versionId, mode: "pasted", tier: "pipeline_live", environment: "it" },
        }),
        201,
      );
      expect(run).toMatchObject({
        status: "created",
        mode: "pasted",
        tier: "pipeline_live",
        setKind: "golden",
        gateThreshold: 26,
        progress: { total: 30 },
      });
      expect(run.shortId).toMatch(/^R-[0-9A-Z]{5}$/);
      // POST /api/eval/runs/{id}/start (idempotent)
      expect((await ok(api(server, "POST", `/api/eval/runs/${run.shortId}/start`))).status).toBe("answering");
      expect((await ok(api(server, "POST", `/api/eval/runs/${run.id}/start`))).status).toBe("answering");
      // rows that cannot be stored are row errors and reject the upload (latency_ms is a 32-bit column; a NUL escape)
      for (const body of [
        { answers: [{ key: "q01", answer: "x", latencyMs: 1e10 }] },
        { format: "csv", content: "key,answer,latency_ms\nq01,x,10000000000" },
        { format: "json", content: '[{"key":"q01","answer":"x\\u0000"}]' },
      ]) {
        const refused = await api(server, "POST", `/api/eval/runs/${run.id}/answers`, { body });
        expect(refused.status, refused.text).toBe(400);
        expect(refused.body.error).toMatchObject({
          code: "IMPORT_INVALID",
          details: [{ row: expect.any(Number), field: expect.stringMatching(/^(latency_ms|latencyMs|answer)$/) }],
        });
      }
      const good = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
      const upload = await ok(
        api(server, "POST", `/api/eval/runs/${run.id}/answers`, {
          body: {
            answers: [
              ...questions(30).map((q, i) => ({
                key: q.key,
                answer: i < 27 ? good : "Sorry, I cannot help with that.",
                latencyMs: 100 + i,
              })),
              { key: "q99", answer: "x" },
            ],
          },
        }),
      );
      expect(upload.matched).toBe(30);
      expect(upload.unmatched).toEqual([expect.objectContaining({ key: "q99" })]);
      expect(upload.run.status).toBe("awaiting_review");

      // the gate before any verdict: pending (exit 1), machine suggestions do not count
      let gate = await cli("check_eval_golden_gate", ["--run-id", run.shortId], env);
      expect(gate.code, gate.stderr).toBe(1);
      expect(gate.stdout).toMatch(/^PENDING /);
      expect(gate.stdout).toContain("waiting for: 30 questions without a verdict");
      expect(gate.stdout).toContain("0/30");

      const adopted = await ok(api(server, "POST", `/api/eval/runs/${run.id}/adopt`, { body: {} }));
      expect(adopted.adopted).toBe(30);
      expect(adopted.spotCheck.map((i: { key: string }) => i.key)).toEqual(["q28", "q29", "q30"]);
      const spot = await ok(api(server, "GET", `/api/eval/runs/${run.id}/items?spotCheck=true`));
      expect(spot.items).toHaveLength(3);
      expect(spot.items[0].verdict).toMatchObject({ verdict: "fail", source: "adopted" });
      expect(spot.items[0].suggestion.flags.map((f: { flag: string }) => f.flag)).toContain("refusal");

      // 27 adopted passes, but the 3 adopted fails are spot-checks no person has looked at: pending
      gate = await cli("check_eval_golden_gate", ["--run-id", run.shortId, "--json"], env);
      expect(gate.code, gate.stderr).toBe(1);
      expect(JSON.parse(gate.stdout)).toMatchObject({
        passed: false,
        status: "pending",
        result: { missing: ["3 spot-checks left"], spotChecksLeft: ["q28", "q29", "q30"] },
      });
      const restGate = await ok(api(server, "GET", `/api/eval/runs/${run.shortId}/gate`));
      expect(restGate.result).toMatchObject({ status: "pending", counts: { spotChecksLeft: 3 } });
      // a person confirms each refusal: the gate passes
      for (const spotItem of spot.items)
        await ok(
          api(server, "PUT", `/api/eval/runs/${run.id}/items/${spotItem.id}/verdict`, {
            body: { verdict: "fail", basis: "refuses to answer", attribution: "guardrail" },
          }),
        );
      gate = await cli("check_eval_golden_gate", ["--run-id", run.shortId, "--json"], env);
      expect(gate.code, gate.stderr).toBe(0);
      const json = JSON.parse(gate.stdout);
      expect(json).toMatchObject({
        passed: true,
        status: "pass",
        shortId: run.shortId,
        result: { counts: { pass: 27, passTyped: 0, passAdopted: 27, fail: 3, unjudged: 0, threshold: 26 } },
      });
      expect(json.result.audit).toMatchObject({ rate: 0, line: "audit of adopted passes: no audit (rate 0)" });
      // statsmodels proportion_confint(27, 30, method="wilson") = (0.74379, 0.96540), rounded outwards
      expect(json.result.counts.interval).toEqual({ low: 0.7437, high: 0.9655 });

      // humans overturn two passes -> 25/30 -> exit 1
      const items = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/items?verdict=pass&limit=2`))).items;
      const missingBasis = await api(server, "PUT", `/api/eval/runs/${run.id}/items/${items[0].id}/verdict`, {
        body: { verdict: "fail", attribution: "generation" },
      });
      expect(missingBasis.status).toBe(400);
      expect(missingBasis.body.error.code).toBe("VERDICT_BASIS_REQUIRED");
      const missingAttr = await api(server, "PUT", `/api/eval/runs/${run.id}/items/${items[0].id}/verdict`, {
        body: { verdict: "fail", basis: "wrong price" },
      });
      expect(missingAttr.body.error.code).toBe("VERDICT_ATTRIBUTION_REQUIRED");
      for (const item of items) {
        const v = await ok(
          api(server, "PUT", `/api/eval/runs/${run.id}/items/${item.id}/verdict`, {
            body: { verdict: "fail", basis: "the price is wrong", attribution: "data" },
          }),
        );
        expect(v.verdict).toMatchObject({ verdict: "fail", source: "human", attribution: "data" });
      }
      const history = await ok(api(server, "GET", `/api/eval/runs/${run.id}/items/${items[0].id}`));
      expect(history.history.map((h: { after: { source: string } }) => h.after.source)).toEqual(["adopted", "human"]);
      gate = await cli("check_eval_golden_gate", ["--run-id", run.id], env);
      expect(gate.code).toBe(1);
      expect(gate.stdout).toMatch(/^FAIL /);
      expect(gate.stdout).toContain("25/30");
      expect(gate.stdout).toContain("GATE_BELOW_THRESHOLD");
      // the CLI prints the server's counts line: the 95 % Wilson interval beside the count (statsmodels
      // proportion_confint(25, 30, method="wilson") = (0.66436, 0.92663)), and how many are unjudged
      expect(gate.stdout).toContain(
        "25/30 human-confirmed passes, 95 % interval 66-93 %, threshold 26 (0 typed, 25 adopted; 30 judged, 0 unjudged)",
      );

      // GET /api/eval/runs/{id}/report
      const report = await ok(api(server, "GET", `/api/eval/runs/${run.shortId}/report`));
      expect(report.machine).toMatchObject({ pass: 27, fail: 3, passRate: 0.9 });
      expect(report.human).toMatchObject({ pass: 25, fail: 5, passRate: 0.8333 });
      expect(report.completeness).toMatchObject({ judged: 30, total: 30, ratio: 1, adopted: 25, human: 5 });
      expect(report.breakdown.byTier).toEqual([expect.objectContaining({ tier: "pipeline_live", total: 30 })]);
      // the adopted refusals got an attribution derived from their guardrail flag
      expect(report.breakdown.byAttribution).toEqual([
        { attribution: "guardrail", fails: 3 },
        { attribution: "data", fails: 2 },
      ]);
      expect(report.agreement).toMatchObject({ pairs: 5, agreed: 3, rawAgreement: 0.6, typed: 5 });
      expect(report.gate).toMatchObject({ passed: false, status: "fail", counts: { pass: 25, typed: 5 } });
      expect(report.latency.items).toBe(30);
      expect(report.run.status).toBe("completed");

      // re-run the same batch, compare
      const again = await ok(api(server, "POST", `/api/eval/runs/${run.id}/rerun`, { body: {} }), 201);
      expect(again).toMatchObject({
        rerunOfId: run.id,
        setVersionId: versionId,
        tier: "pipeline_live",
        mode: "pasted",
      });
      await ok(
        api(server, "POST", `/api/eval/runs/${again.id}/answers`, {
          body: {
            format: "csv",
            content: `key,answer\n${questions(30)
              .map((q) => `${q.key},${good}`)
              .join("\n")}\n`,
          },
        }),
      );
      await ok(api(server, "POST", `/api/eval/runs/${again.id}/adopt`, { body: {} }));
      const cmp = await ok(api(server, "GET", `/api/eval/runs/compare?run_a=${run.shortId}&run_b=${again.shortId}`));
      expect(cmp.summary).toMatchObject({ both_pass: 25, fixed: 5, regressed: 0, both_fail: 0 });
      expect(cmp.passRates.human).toMatchObject({ a: 0.8333, b: 1, delta: 0.1667 });
      // one set version: paired; b = 0, c = 5 -> scipy binomtest(0, 5, 0.5).pvalue = 0.0625
      expect(cmp.paired).toMatchObject({ bothPass: 25, onlyA: 0, onlyB: 5, bothFail: 0, pValue: 0.0625 });
      expect(cmp.warnings).toEqual([]);
      expect((await api(server, "GET", `/api/eval/runs/compare?run_a=${run.id}`)).status).toBe(400);

      // GET /api/eval/usage
      const usage = await ok(api(server, "GET", `/api/eval/usage?agentId=${agentId}`));
      expect(usage.totals.runs).toBeGreaterThanOrEqual(2);
      expect(usage.totals.answeredItems).toBeGreaterThanOrEqual(60);
      expect(usage.days[0]).toMatchObject({ agentId, answering: expect.any(Object), judging: expect.any(Object) });

      // bad cases
      const failed = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/items?verdict=fail`))).items;
      const bc = await ok(
        api(server, "POST", `/api/eval/runs/${run.id}/items/${failed[0].id}/bad-case`, { body: { notes: "from IT" } }),
        201,
      );
      expect(bc.badCase).toMatchObject({ status: "open", runShortId: run.shortId });
      expect(
        (await api(server, "POST", `/api/eval/runs/${run.id}/items/${failed[0].id}/bad-case`, { body: {} })).status,
      ).toBe(200);
      const passed = (await ok(api(server, "GET", `/api/eval/runs/${again.id}/items?limit=1`))).items[0];
      const notFail = await api(server, "POST", `/api/eval/runs/${again.id}/items/${passed.id}/bad-case`, { body: {} });
      expect(notFail.body.error.code).toBe("BAD_CASE_REQUIRES_FAIL");
      expect((await ok(api(server, "POST", `/api/eval/runs/${run.id}/bad-cases`))).created).toBe(4);
      expect(
        (await ok(api(server, "PATCH", `/api/eval/bad-cases/${bc.badCase.id}`, { body: { status: "fixed" } }))).status,
      ).toBe("fixed");
      expect((await ok(api(server, "GET", `/api/eval/bad-cases?runId=${run.shortId}`))).items).toHaveLength(5);
      // closing the loop: the comparison with the re-run says which Bad Cases are fixed; a fixed one can be verified
      const loop = await ok(api(server, "GET", `/api/eval/runs/compare?run_a=${run.shortId}&run_b=${again.shortId}`));
      expect(loop.badCases).toEqual({ fixed: 5, stillFailing: 0, notJudged: 0, notInB: 0 });
      expect(loop.questions.find((q: { key: string }) => q.key === failed[0].key).badCase).toMatchObject({
        id: bc.badCase.id,
        status: "fixed",
        result: "fixed",
      });
      // ... but a pasted re-run of the same version proves nothing about the agent: not verified (issue 28, item 6;
      // what does verify is walked in "Bad Cases are verified only by ..." below)
      const pastedPass = await api(server, "PATCH", `/api/eval/bad-cases/${bc.badCase.id}`, {
        body: { status: "verified" },
      });
      expect(pastedPass.status).toBe(409);
      expect(pastedPass.body.error).toMatchObject({
        code: "BAD_CASE_NOT_VERIFIED",
        message: expect.stringContaining(`the pass in ${again.shortId} does not count: its answers were pasted`),
        details: [{ key: failed[0].key, foundInVersion: 1, latestPass: { runShortId: again.shortId, mode: "pasted" } }],
      });
      expect((await ok(api(server, "GET", `/api/eval/bad-cases/${bc.badCase.id}`))).status).toBe("fixed");
      // without a later pass there is nothing to verify: a Bad Case of the re-run itself (a fail judged by a person)
      const againItems = (await ok(api(server, "GET", `/api/eval/runs/${again.id}/items?limit=1`))).items;
      await ok(
        api(server, "PUT", `/api/eval/runs/${again.id}/items/${againItems[0].id}/verdict`, {
          body: { verdict: "fail", basis: "checked again", attribution: "generation" },
        }),
      );
      const late = await ok(
        api(server, "POST", `/api/eval/runs/${again.id}/items/${againItems[0].id}/bad-case`, { body: {} }),
        201,
      );
      const refusedVerify = await api(server, "PATCH", `/api/eval/bad-cases/${late.badCase.id}`, {
        body: { status: "verified" },
      });
      expect(refusedVerify.status).toBe(409);
      expect(refusedVerify.body.error.code).toBe("BAD_CASE_NOT_VERIFIED");

      // check_eval_wave_c_size: this set is the 30-question, 2-script, threshold-26 gate set
      const wave = await cli("check_eval_wave_c_size", ["--set-id", set.id], env);
      expect(wave.code, wave.stdout + wave.stderr).toBe(0);
      const small = await frozenSet(server, agentId, { n: 28, threshold: 24, name: "generic" });
      const waveBad = await cli("check_eval_wave_c_size", ["--set-id", small.set.id, "--json"], env);
      expect(waveBad.code).toBe(1);
      expect(JSON.parse(waveBad.stdout).problems).toHaveLength(3);
    }, 300_000); // a limit, not a measure: the walkthrough ran past 180 s on PGlite with the whole suite at load 20

    it("gate CLI: a regression-pool run never passes; exit 2 on usage, bad token, unknown run, no server", async () => {
      const { versionId } = await frozenSet(server, agentId, {
        n: 2,
        threshold: 1,
        kind: "regression_pool",
        name: "pool",
      });
      const run = await ok(
        api(server, "POST", "/api/eval/runs", { body: { setVersionId: versionId, mode: "pasted" } }),
        201,
      );
      await ok(
        api(server, "POST", `/api/eval/runs/${run.id}/answers`, {
          body: {
            answers: [
              { key: "q01", answer: "a" },
              { key: "q02", answer: "b" },
            ],
          },
        }),
      );
      const items = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/items`))).items;
      for (const i of items)
        await ok(api(server, "PUT", `/api/eval/runs/${run.id}/items/${i.id}/verdict`, { body: { verdict: "pass" } }));
      const pool = await cli("check_eval_golden_gate", ["--run-id", run.shortId], env);
      expect(pool.code).toBe(1);
      expect(pool.stdout).toContain("GATE_TRACK_B");
      expect((await cli("check_eval_golden_gate", [], env)).code).toBe(2);
      const badToken = await cli("check_eval_golden_gate", ["--run-id", run.shortId], {
        ...env,
        FLOWBENCH_TOKEN: "fb_wrong",
      });
      expect(badToken.code).toBe(2);
      expect(badToken.stderr).toContain("401");
      expect((await cli("check_eval_golden_gate", ["--run-id", "R-ZZZZZ"], env)).code).toBe(2);
      expect(
        (
          await cli("check_eval_golden_gate", ["--run-id", run.shortId], {
            ...env,
            FLOWBENCH_URL: "http://127.0.0.1:9",
          })
        ).code,
      ).toBe(2);
    });

    it("in-platform answering over HTTP: start, progress, awaiting review; cancel", async () => {
      const { versionId } = await frozenSet(server, agentId, { n: 4, scripted: 1, threshold: 3, name: "live" });
      const run = await ok(
        api(server, "POST", "/api/eval/runs", {
          body: { setVersionId: versionId, mode: "in_platform", tier: "invoke", concurrency: 2 },
        }),
        201,
      );
      await ok(api(server, "POST", `/api/eval/runs/${run.id}/start`));
      const done = await waitForStatus(server, run.id, "awaiting_review");
      expect(done.progress).toMatchObject({ total: 4, answered: 4, suggested: 4 });
      const items = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/items`))).items;
      expect(items.every((i: { traceId: string | null; answer: string | null }) => i.traceId && i.answer)).toBe(true);
      expect(items[0].turns).toHaveLength(3);
      expect(Math.abs(Date.parse(items[0].answeredAt) - Date.now())).toBeLessThan(120_000);
      expect(items[0].llmCalls).toBe(2);
      const pasted = await api(server, "POST", `/api/eval/runs/${run.id}/answers`, {
        body: { answers: [{ key: "q01", answer: "x" }] },
      });
      expect(pasted.body.error.code).toBe("RUN_MODE_MISMATCH");
      const report = await ok(api(server, "GET", `/api/eval/runs/${run.id}/report`));
      expect(report.tokens.answering.modelCalls).toBe(5);

      const big = await frozenSet(server, agentId, { n: 400, threshold: 1, name: "to cancel" });
      const toCancel = await ok(
        api(server, "POST", "/api/eval/runs", {
          body: { setVersionId: big.versionId, mode: "in_platform", tier: "invoke", concurrency: 1 },
        }),
        201,
      );
      await ok(api(server, "POST", `/api/eval/runs/${toCancel.id}/start`));
      const cancelled = await ok(api(server, "POST", `/api/eval/runs/${toCancel.id}/cancel`));
      expect(cancelled.status).toBe("cancelled");
      const again = await api(server, "POST", `/api/eval/runs/${toCancel.id}/start`);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe("RUN_STATE_CONFLICT");
      // an execution in flight when the run was cancelled is aborted and settles on its own (the cancel does not wait for it)
      let settled = await ok(api(server, "GET", `/api/eval/runs/${toCancel.id}`));
      for (
        const until = Date.now() + 30_000;
        settled.progress.pending + settled.progress.answering > 0 && Date.now() < until;
      ) {
        await new Promise((r) => setTimeout(r, 100));
        settled = await ok(api(server, "GET", `/api/eval/runs/${toCancel.id}`));
      }
      expect(settled.progress.pending + settled.progress.answering).toBe(0);
      expect(settled.progress.answered).toBeLessThan(400);
      expect(settled.progress.cancelled).toBeGreaterThan(0);
    }, 150_000);

    it("Bad Cases are verified only by a platform run of a newer agent version with a human pass, or a manager's reason", async () => {
      const viewer = await tokenWithRole(server, "viewer");
      const annotator = await tokenWithRole(server, "annotator");
      const builder = await tokenWithRole(server, "builder");
      const agent = (
        await ok(
          api(server, "POST", "/api/builder/agents", {
            body: { name: `verify ${server.name} ${Date.now()}`, workflow: minimalWorkflow() },
          }),
          201,
        )
      ).agent.id as string;
      const { versionId } = await frozenSet(server, agent, { n: 1, threshold: 0, name: "verify" });
      const judge = async (runId: string, verdict: "pass" | "fail") => {
        const item = (await ok(api(server, "GET", `/api/eval/runs/${runId}/items`))).items[0];
        const body = verdict === "pass" ? { verdict } : { verdict, basis: "no dish", attribution: "generation" };
        await ok(api(server, "PUT", `/api/eval/runs/${runId}/items/${item.id}/verdict`, { token: annotator, body }));
        return item.id as string;
      };
      const pastedRun = async (answer: string) => {
        const run = await ok(
          api(server, "POST", "/api/eval/runs", { body: { setVersionId: versionId, mode: "pasted" } }),
          201,
        );
        await ok(
          api(server, "POST", `/api/eval/runs/${run.id}/answers`, { body: { answers: [{ key: "q01", answer }] } }),
        );
        return run;
      };
      const platformRun = async () => {
        const run = await ok(
          api(server, "POST", "/api/eval/runs", {
            body: { setVersionId: versionId, mode: "in_platform", tier: "invoke" },
          }),
          201,
        );
        await ok(api(server, "POST", `/api/eval/runs/${run.id}/start`));
        await waitForStatus(server, run.id, "awaiting_review");
        return run;
      };
      const makeBadCase = async () => {
        const found = await pastedRun("Hello there.");
        const itemId = await judge(found.id, "fail");
        return (await ok(api(server, "POST", `/api/eval/runs/${found.id}/items/${itemId}/bad-case`, { body: {} }), 201))
          .badCase;
      };
      const verify = (id: string, token: string | null, reason?: string) =>
        api(server, "PATCH", `/api/eval/bad-cases/${id}`, {
          token,
          body: { status: "verified", ...(reason !== undefined ? { reason } : {}) },
        });

      const bc = await makeBadCase();
      expect(bc.foundInVersion).toBe(1);
      // a pasted pass on the same version: refused, saying what is missing
      const pasted = await pastedRun("I recommend the scallion pancake; 12 yuan.");
      await judge(pasted.id, "pass");
      const refused = await verify(bc.id, annotator);
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe("BAD_CASE_NOT_VERIFIED");
      expect(refused.body.error.message).toContain(
        "needs a platform run of a newer agent version than v1 (the one this Bad Case was found with) with a human pass on q01",
      );
      expect(refused.body.error.message).toContain("or a reason");
      // a platform run of the version it was found with: refused too
      const same = await platformRun();
      await judge(same.id, "pass");
      const sameRefused = await verify(bc.id, annotator);
      expect(sameRefused.status).toBe(409);
      expect(sameRefused.body.error.message).toContain(`the pass in ${same.shortId} does not count: it ran v1`);
      const page = await ok(api(server, "GET", `/api/eval/bad-cases/${bc.id}`, { token: viewer }));
      expect(page).toMatchObject({
        verifiableBy: null,
        latestRun: { runShortId: same.shortId, runMode: "in_platform", agentVersion: 1, notEvidence: "not_newer" },
      });

      // the fix: version 2, answered in the platform and passed by a person; who may verify: eval.annotate
      await ok(
        api(server, "POST", `/api/builder/agents/${agent}/versions`, {
          body: { workflow: minimalWorkflow(), note: "fix" },
        }),
        201,
      );
      const fixed = await platformRun();
      expect(fixed.workflowVersion).toBe(2);
      await judge(fixed.id, "pass");
      expect((await ok(api(server, "GET", `/api/eval/bad-cases/${bc.id}`))).verifiableBy).toMatchObject({
        runShortId: fixed.shortId,
        agentVersion: 2,
        notEvidence: null,
      });
      expect((await verify(bc.id, null)).status).toBe(401);
      expect((await verify(bc.id, viewer)).status).toBe(403);
      expect((await ok(api(server, "GET", `/api/eval/bad-cases/${bc.id}`))).status).toBe("open");
      const verified = await ok(verify(bc.id, annotator));
      expect(verified).toMatchObject({ status: "verified", verifiedRunId: fixed.id, verifiedReason: null });
      const history = (await ok(api(server, "GET", `/api/eval/bad-cases/${bc.id}`))).history;
      expect(history.map((h: { kind: string; toStatus: string }) => `${h.kind}:${h.toStatus}`)).toEqual([
        "created:open",
        "status:verified",
      ]);
      expect(history[1]).toMatchObject({
        fromStatus: "open",
        runShortId: fixed.shortId,
        reason: null,
        byLabel: expect.any(String),
      });

      // without a qualifying run: a manager's reason (eval.manage), recorded; anyone else 403, a blank reason 400
      const other = await makeBadCase();
      const reason = "the menu data was corrected upstream; no agent change";
      expect((await verify(other.id, null, reason)).status).toBe(401);
      const byAnnotator = await verify(other.id, annotator, reason);
      expect(byAnnotator.status).toBe(403);
      expect(byAnnotator.body.error).toMatchObject({
        code: "FORBIDDEN",
        message: expect.stringContaining("needs eval.manage"),
      });
      expect((await verify(other.id, builder, " ")).status).toBe(400);
      const notWithFixing = await api(server, "PATCH", `/api/eval/bad-cases/${other.id}`, {
        token: builder,
        body: { status: "fixing", reason },
      });
      expect(notWithFixing.status).toBe(400);
      expect(notWithFixing.body.error.code).toBe("REQUEST_INVALID");
      // tRPC: the same rule (derived from the one declaration)
      await expect(
        trpc(server, annotator).eval.badCases.update.mutate({ id: other.id, body: { status: "verified", reason } }),
      ).rejects.toMatchObject({ data: { httpStatus: 403 } });
      const byManager = await ok(verify(other.id, builder, reason));
      expect(byManager).toMatchObject({ status: "verified", verifiedRunId: null, verifiedReason: reason });
      const shown = await ok(api(server, "GET", `/api/eval/bad-cases/${other.id}`, { token: viewer }));
      expect(shown.verifiedReason).toBe(reason);
      expect(shown.history.at(-1)).toMatchObject({
        toStatus: "verified",
        runId: null,
        reason,
        byId: expect.any(String),
        at: expect.any(String),
      });
    }, 240_000);

    it("roles: viewers read, annotators judge, builders manage; tRPC exposes the same services", async () => {
      const viewer = await tokenWithRole(server, "viewer");
      const annotator = await tokenWithRole(server, "annotator");
      const { versionId } = await frozenSet(server, agentId, { n: 2, threshold: 1, name: "roles" });
      const forbidden = await api(server, "POST", "/api/eval/runs", {
        token: viewer,
        body: { setVersionId: versionId, mode: "pasted" },
      });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error.code).toBe("FORBIDDEN");
      expect(
        (
          await api(server, "POST", "/api/eval/runs", {
            token: annotator,
            body: { setVersionId: versionId, mode: "pasted" },
          })
        ).status,
      ).toBe(403);
      const run = await ok(
        api(server, "POST", "/api/eval/runs", { body: { setVersionId: versionId, mode: "pasted" } }),
        201,
      );
      await ok(
        api(server, "POST", `/api/eval/runs/${run.id}/answers`, {
          body: {
            answers: [
              { key: "q01", answer: "a" },
              { key: "q02", answer: "b" },
            ],
          },
        }),
      );
      const item = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/items`, { token: viewer }))).items[0];
      expect(
        (
          await api(server, "PUT", `/api/eval/runs/${run.id}/items/${item.id}/verdict`, {
            token: viewer,
            body: { verdict: "pass" },
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await api(server, "PUT", `/api/eval/runs/${run.id}/items/${item.id}/verdict`, {
            token: annotator,
            body: { verdict: "pass" },
          })
        ).status,
      ).toBe(200);
      expect((await api(server, "GET", `/api/eval/runs/${run.id}/report`, { token: viewer })).status).toBe(200);
      expect((await api(server, "GET", "/api/eval/usage", { token: null })).status).toBe(401);

      const client = trpc(server);
      const report = await client.eval.runs.report.query({ id: run.shortId });
      expect(report.human.pass).toBe(1);
      const gate = await client.eval.runs.gate.query({ id: run.id });
      expect(gate.result.counts.unjudged).toBe(1);
      const meta = await ok(api(server, "GET", "/api/eval/meta"));
      expect(Object.keys(meta.attributions)).toContain("retrieval");
      // the online loop's and the comparison's words are the server's too (the pages show these)
      expect(meta.leadSignals).toContainEqual({
        id: "no_query",
        label: "No query",
        meaning: expect.stringContaining("http"),
      });
      expect(meta.leadStatuses.map((s: { id: string }) => s.id)).toEqual(["new", "in_pool", "dismissed"]);
      expect(meta.compareOutcomes).toContainEqual(expect.objectContaining({ id: "only_b", label: "Only in B" }));
      const doc = await ok(api(server, "GET", "/api/openapi.json", { token: null }));
      for (const p of [
        "/api/eval/runs",
        "/api/eval/runs/{id}/start",
        "/api/eval/runs/{id}/report",
        "/api/eval/usage",
        "/api/eval/runs/compare",
      ])
        expect(doc.paths[p], p).toBeTruthy();
      expect(doc.info.description).toContain("SET_VERSION_NOT_FROZEN");
    });

    it("an upload between 10 and 12 MiB (above Next's default proxy buffer, within the documented limit) arrives whole", async () => {
      const { versionId } = await frozenSet(server, agentId, { n: 2, threshold: 1, name: "big upload" });
      const run = await ok(
        api(server, "POST", "/api/eval/runs", { body: { setVersionId: versionId, mode: "pasted" } }),
        201,
      );
      const answers = Array.from({ length: 230 }, (_, i) => ({ key: `none-${i}`, answer: "x".repeat(49_000) }));
      answers.push({ key: "q01", answer: "the last row of an 11 MB body" });
      const body = JSON.stringify({ answers });
      expect(body.length).toBeGreaterThan(10.5 * 1024 * 1024);
      const up = await ok(api(server, "POST", `/api/eval/runs/${run.id}/answers`, { rawBody: body }));
      expect(up.matched).toBe(1);
      const item = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/items`))).items.find(
        (i: { key: string }) => i.key === "q01",
      );
      expect(item.answer).toBe("the last row of an 11 MB body");
    });

    it("integrity over HTTP: close answering, verdict conflicts (expectedVersion), the run's fixed gate threshold", async () => {
      const viewer = await tokenWithRole(server, "viewer");
      const { set: created, versionId } = await frozenSet(server, agentId, { n: 3, threshold: 1, name: "integrity" });
      const setId = created.id as string;
      const run = await ok(
        api(server, "POST", "/api/eval/runs", { body: { setVersionId: versionId, mode: "pasted" } }),
        201,
      );
      expect(run.gateThreshold).toBe(1);
      await ok(
        api(server, "POST", `/api/eval/runs/${run.id}/answers`, { body: { answers: [{ key: "q01", answer: "a" }] } }),
      );
      expect((await api(server, "POST", `/api/eval/runs/${run.id}/close`, { token: viewer })).status).toBe(403);
      expect((await api(server, "POST", `/api/eval/runs/${run.id}/close`, { token: null })).status).toBe(401);
      const closed = await ok(api(server, "POST", `/api/eval/runs/${run.id}/close`));
      expect(closed.unanswered.map((u: { key: string }) => u.key)).toEqual(["q02", "q03"]);
      expect(closed.run.status).toBe("awaiting_review");
      const again = await api(server, "POST", `/api/eval/runs/${run.id}/close`);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe("RUN_STATE_CONFLICT");

      const items = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/items`))).items;
      const first = items[0];
      expect(first.verdictVersion).toBe(0);
      const put = (body: unknown) => api(server, "PUT", `/api/eval/runs/${run.id}/items/${first.id}/verdict`, { body });
      expect((await ok(put({ verdict: "pass", expectedVersion: 0 }))).verdictVersion).toBe(1);
      const stale = await put({ verdict: "fail", basis: "wrong", attribution: "generation", expectedVersion: 0 });
      expect(stale.status).toBe(409);
      expect(stale.body.error).toMatchObject({
        code: "VERDICT_CONFLICT",
        details: [{ expectedVersion: 0, verdictVersion: 1 }],
      });
      await ok(put({ verdict: "fail", basis: "wrong", attribution: "generation", expectedVersion: 1 }));
      const detail = await ok(api(server, "GET", `/api/eval/runs/${run.id}/items/${first.id}`));
      expect(detail.history.map((h: { version: number }) => h.version)).toEqual([1, 2]);
      expect(detail.history[1].before).toEqual(detail.history[0].after);

      // the set's threshold changes later: the run keeps the one it was created with
      await ok(api(server, "PATCH", `/api/eval/sets/${setId}`, { body: { gateThreshold: 3 } }));
      const report = await ok(api(server, "GET", `/api/eval/runs/${run.id}/report`));
      expect(report.set).toMatchObject({ gateThreshold: 1, currentGateThreshold: 3 });
      expect(report.gate.counts.threshold).toBe(1);
    });
  });
}
