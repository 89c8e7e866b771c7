import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { drawAuditSample } from "@/server/eval/verdicts/audit-sample";
import { api, frozenSetWithPastedRun, minimalWorkflow, ok, servers, tokenWithRole, trpc } from "./client";
import type { ServerInfo } from "./global-setup";

/**
 * The audit of adopted passes (issue 23) over real HTTP on both databases: a set's auditRate and maxAuditOverturn
 * (fixed on a run when it is created), the sample an adoption draws (its size: all when fewer than 3, none at rate 0,
 * 10 % rounded up), its reproducibility from the stored seed and population (GET /runs/{id}/audits, redrawn here with
 * the documented algorithm), the audit items on the spot-check list, the gate pending with GATE_AUDIT_PENDING until
 * every audit item has a typed verdict, an overturn failing it with GATE_AUDIT_OVERTURNED until people have reviewed
 * the rest of the adopted passes (the queue's source=adopted&verdict=pass), and the report's line with the Wilson
 * interval of the false-pass estimate.
 *
 * Wilson reference (statsmodels 0.15.0, Python 3.11.7, 2026-11-28):
 *   python3 -c "from statsmodels.stats.proportion import proportion_confint as pc; print(pc(1,3,method='wilson'))"
 *   (0.06149194472039626, 0.7923403991979523)
 */

const GOOD = "Try the scallion pancake, 12 yuan.";
const BAD = "Try the porridge.";
const WILSON_1_OF_3 = { low: 0.06149194472039626, high: 0.7923403991979523 };

type Item = {
  id: string;
  key: string;
  audit: boolean;
  verdict: { verdict: string; source: string } | null;
  suggestion: { verdict: string; flags: unknown[] } | null;
};

/** A golden set of `good` questions the built-in judge passes and `bad` it fails, a pasted run answered. */
async function pastedRun(
  server: ServerInfo,
  agentId: string,
  name: string,
  good: number,
  bad: number,
  settings: { auditRate?: number; maxAuditOverturn?: number; gateThreshold?: number } = {},
) {
  const keys = Array.from({ length: good + bad }, (_, i) => `${i < good ? "g" : "b"}${String(i).padStart(3, "0")}`);
  const { set, pastedRun } = await frozenSetWithPastedRun(
    server,
    { agentId, name, kind: "golden", gateThreshold: settings.gateThreshold ?? 1, ...settings },
    keys,
    (key) => ({
      question: `Recommend a breakfast dish with its price (${key})`,
      expected_points: ["scallion pancake", "12 yuan"],
    }),
  );
  const run = await pastedRun((key) => (key.startsWith("g") ? GOOD : BAD));
  return { set, run };
}

async function itemsOf(server: ServerInfo, runId: string, query = ""): Promise<Item[]> {
  return (await ok(api(server, "GET", `/api/eval/runs/${runId}/items?limit=500${query}`))).items;
}

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The gate CLI against the started server, with its Markdown and JUnit reports. */
function gateCli(server: ServerInfo, runId: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "audit-gate-"));
  const md = path.join(dir, "gate.md");
  const junit = path.join(dir, "gate.xml");
  return new Promise<{ code: number; stdout: string; markdown: string; junit: string }>((resolve) =>
    execFile(
      process.execPath,
      [path.join(ROOT, "bin", "check_eval_golden_gate.mjs"), "--run-id", runId, "--markdown", md, "--junit", junit],
      {
        cwd: ROOT,
        env: { ...process.env, FLOWBENCH_URL: server.url, FLOWBENCH_TOKEN: server.adminToken },
        timeout: 60_000,
      },
      (error, stdout) => {
        const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, "utf8") : "");
        resolve({
          code: error ? ((error as { code?: number }).code ?? 1) : 0,
          stdout,
          markdown: read(md),
          junit: read(junit),
        });
        fs.rmSync(dir, { recursive: true, force: true });
      },
    ),
  );
}

const typePass = (server: ServerInfo, runId: string, itemId: string) =>
  ok(api(server, "PUT", `/api/eval/runs/${runId}/items/${itemId}/verdict`, { body: { verdict: "pass" } }));

for (const server of servers()) {
  describe(`the audit of adopted passes on ${server.name}`, () => {
    let agentId: string;
    const agent = async () => {
      agentId ??= (
        await ok(
          api(server, "POST", "/api/builder/agents", {
            body: { name: `audit agent ${server.name}`, workflow: minimalWorkflow() },
          }),
          201,
        )
      ).agent.id;
      return agentId;
    };

    it("sample sizes: all when fewer than 3, none at rate 0 ('no audit'), 10 % rounded up; reproducible from the seed", async () => {
      const id = await agent();
      // fewer than 3 adopted passes: all of them
      const few = await pastedRun(server, id, "audit: few", 2, 1);
      expect(few.set).toMatchObject({ auditRate: 0.1, maxAuditOverturn: 0 });
      expect(few.run).toMatchObject({ auditRate: 0.1, maxAuditOverturn: 0 });
      const adoptedFew = await ok(api(server, "POST", `/api/eval/runs/${few.run.id}/adopt`, { body: {} }));
      expect(adoptedFew.adopted).toBe(3);
      expect(adoptedFew.audit).toMatchObject({ rate: 0.1, algorithm: "mulberry32-fisher-yates/1" });
      expect(adoptedFew.audit.population).toHaveLength(2);
      expect(adoptedFew.audit.sample).toEqual(adoptedFew.audit.population);
      expect(adoptedFew.audit.sampleKeys).toEqual(["g000", "g001"]);
      // the audit items are on the spot-check list the adoption answers, marked audit: true (the fail is there too)
      expect(
        adoptedFew.spotCheck
          .map((i: Item) => [i.key, i.audit])
          .sort((a: string[], b: string[]) => a[0]!.localeCompare(b[0]!)),
      ).toEqual([
        ["b002", false],
        ["g000", true],
        ["g001", true],
      ]);

      // rate 0: the adoption's passes are on record, nothing is drawn, the report and the gate say "no audit"
      const none = await pastedRun(server, id, "audit: none", 3, 0, { auditRate: 0 });
      const adoptedNone = await ok(api(server, "POST", `/api/eval/runs/${none.run.id}/adopt`, { body: {} }));
      expect(adoptedNone.audit).toMatchObject({ rate: 0, sample: [] });
      expect(adoptedNone.audit.population).toHaveLength(3);
      const noneGate = await ok(api(server, "GET", `/api/eval/runs/${none.run.id}/gate`));
      expect(noneGate.result).toMatchObject({ status: "pass", auditLeft: [] });
      expect(noneGate.result.audit).toMatchObject({
        rate: 0,
        sampled: 0,
        line: "audit of adopted passes: no audit (rate 0)",
      });
      const noneReport = await ok(api(server, "GET", `/api/eval/runs/${none.run.id}/report`));
      expect(noneReport.audit).toMatchObject({ line: "audit of adopted passes: no audit (rate 0)", estimate: null });

      // 10 %: 40 adopted passes (and 2 fails, which are spot-checks anyway) draw 4
      const many = await pastedRun(server, id, "audit: ten percent", 40, 2, { gateThreshold: 30 });
      await ok(api(server, "POST", `/api/eval/runs/${many.run.id}/adopt`, { body: {} }));
      const stored = await ok(api(server, "GET", `/api/eval/runs/${many.run.shortId}/audits`));
      expect(stored).toMatchObject({ auditRate: 0.1, maxAuditOverturn: 0 });
      expect(stored.audits).toHaveLength(1);
      const audit = stored.audits[0];
      expect(audit.sample).toHaveLength(4);
      // reproducible: the documented algorithm redraws the stored sample from the stored seed and population
      expect(drawAuditSample(audit.population, audit.rate, audit.seed)).toEqual(audit.sample);
      // the population is exactly the adopted passes (the items list says so), the marks exactly the sample
      const items = await itemsOf(server, many.run.id);
      const adoptedPasses = items
        .filter((i) => i.verdict?.verdict === "pass" && i.verdict.source === "adopted")
        .map((i) => i.id)
        .sort();
      expect(audit.population).toEqual(adoptedPasses);
      expect(
        items
          .filter((i) => i.audit)
          .map((i) => i.id)
          .sort(),
      ).toEqual(audit.sample);
      // the queue's spot-check filter lists them (marked), with the two fails
      const spot = await ok(api(server, "GET", `/api/eval/runs/${many.run.id}/queue?spotCheck=true`));
      expect(spot.items).toHaveLength(6);
      expect(
        spot.items
          .filter((r: { audit: boolean }) => r.audit)
          .map((r: { id: string }) => r.id)
          .sort(),
      ).toEqual(audit.sample);
      expect(spot.counts.spotCheckLeft).toBe(6);

      // pending until every audit item has a typed verdict (the two fails: spot-checks, counted apart)
      const pending = await ok(api(server, "GET", `/api/eval/runs/${many.run.id}/gate`));
      expect(pending.result.status).toBe("pending");
      expect(pending.result.reasons.map((r: { code: string }) => r.code)).toEqual([
        "GATE_SPOT_CHECKS_LEFT",
        "GATE_AUDIT_PENDING",
      ]);
      expect(pending.result.missing).toContain("4 audit items to check");
      expect(pending.result.auditLeft.sort()).toEqual([...audit.sampleKeys].sort());
      expect(pending.input.audit).toEqual({ rate: 0.1, maxOverturn: 0, draws: 1 });
      for (const itemId of audit.sample.slice(0, 3)) await typePass(server, many.run.id, itemId);
      const oneLeft = await ok(api(server, "GET", `/api/eval/runs/${many.run.id}/gate`));
      expect(oneLeft.result.reasons.find((r: { code: string }) => r.code === "GATE_AUDIT_PENDING").message).toMatch(
        /^1 of 4 audit items/,
      );
      await typePass(server, many.run.id, audit.sample[3]);
      for (const i of items.filter((x) => x.key.startsWith("b")))
        await ok(
          api(server, "PUT", `/api/eval/runs/${many.run.id}/items/${i.id}/verdict`, {
            body: { verdict: "fail", basis: "no price", attribution: "generation" },
          }),
        );
      const done = await ok(api(server, "GET", `/api/eval/runs/${many.run.id}/gate`));
      expect(done.result).toMatchObject({ status: "pass", auditLeft: [] });
      expect(done.result.audit).toMatchObject({
        sampled: 4,
        checked: 4,
        overturned: 0,
        falsePassRate: 0,
        line: "audit of adopted passes: 4 of 4 checked, 0 overturned",
      });

      // who may read the audits: any reader; nobody without a token
      const viewer = await tokenWithRole(server, "viewer");
      expect((await api(server, "GET", `/api/eval/runs/${many.run.id}/audits`, { token: viewer })).status).toBe(200);
      expect((await api(server, "GET", `/api/eval/runs/${many.run.id}/audits`, { token: null })).status).toBe(401);
      expect((await api(server, "GET", "/api/eval/runs/R-ZZZZZ/audits")).status).toBe(404);
      // the same over tRPC
      expect((await trpc(server).eval.runs.audits.query({ id: many.run.id })).audits[0]?.seed).toBe(audit.seed);
    });

    it("an overturn fails the gate with GATE_AUDIT_OVERTURNED until the rest of the adopted passes are reviewed; settings are fixed per run", async () => {
      const id = await agent();
      const { set, run } = await pastedRun(server, id, "audit: overturn", 6, 0, { gateThreshold: 5 });
      // bad settings are 400; a change affects new runs only
      const bad = await api(server, "PATCH", `/api/eval/sets/${set.id}`, { body: { auditRate: 1.5 } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe("REQUEST_INVALID");
      expect(JSON.stringify(bad.body.error.details)).toContain("auditRate");
      expect((await api(server, "PATCH", `/api/eval/sets/${set.id}`, { body: { maxAuditOverturn: -1 } })).status).toBe(
        400,
      );
      const changed = await ok(
        api(server, "PATCH", `/api/eval/sets/${set.id}`, { body: { auditRate: 0.25, maxAuditOverturn: 2 } }),
      );
      expect(changed).toMatchObject({ auditRate: 0.25, maxAuditOverturn: 2 });
      expect(await ok(api(server, "GET", `/api/eval/runs/${run.id}`))).toMatchObject({
        auditRate: 0.1,
        maxAuditOverturn: 0,
      });

      const adopted = await ok(api(server, "POST", `/api/eval/runs/${run.id}/adopt`, { body: {} }));
      const sample: string[] = adopted.audit.sample;
      expect(sample).toHaveLength(3);
      const pending = await ok(api(server, "GET", `/api/eval/runs/${run.id}/gate`));
      expect(pending.result).toMatchObject({ status: "pending", missing: ["3 audit items to check"] });
      expect(pending.result.reasons.map((r: { code: string }) => r.code)).toEqual(["GATE_AUDIT_PENDING"]);

      // a person confirms two audit items and overturns one
      await typePass(server, run.id, sample[0]!);
      await typePass(server, run.id, sample[1]!);
      await ok(
        api(server, "PUT", `/api/eval/runs/${run.id}/items/${sample[2]}/verdict`, {
          body: { verdict: "fail", basis: "the price is made up", attribution: "generation" },
        }),
      );
      const failed = await ok(api(server, "GET", `/api/eval/runs/${run.id}/gate`));
      expect(failed.result.status).toBe("fail");
      expect(failed.result.reasons).toEqual([
        {
          code: "GATE_AUDIT_OVERTURNED",
          message:
            "the audit overturned 1 of 3 checked adopted passes (the set allows 0): 3 adopted passes left for people to review",
        },
      ]);
      const report = await ok(api(server, "GET", `/api/eval/runs/${run.id}/report`));
      expect(report.audit).toMatchObject({
        line: "audit of adopted passes: 3 of 3 checked, 1 overturned",
        sampled: 3,
        checked: 3,
        overturned: 1,
        falsePassRate: 0.3333,
        adoptedPassesLeft: 3,
        interval: {
          low: Math.floor(WILSON_1_OF_3.low * 10000) / 10000,
          high: Math.ceil(WILSON_1_OF_3.high * 10000) / 10000,
        },
        estimate: "estimated false-pass rate of the adopted passes 33 % (95 % interval 6-79 %, n 3)",
      });
      expect(report.gate.reasons.map((r: { code: string }) => r.code)).toEqual(["GATE_AUDIT_OVERTURNED"]);
      // the gate CLI says the same in its text, Markdown and JUnit reports
      const cliOut = await gateCli(server, run.shortId);
      expect(cliOut.code).toBe(1);
      expect(cliOut.stdout).toMatch(/^FAIL /);
      expect(cliOut.stdout).toContain(
        "audit of adopted passes: 3 of 3 checked, 1 overturned; estimated false-pass rate of the adopted passes 33 %",
      );
      expect(cliOut.stdout).toContain("GATE_AUDIT_OVERTURNED");
      expect(cliOut.markdown).toContain("| audit of adopted passes | 3 of 3 checked, 1 overturned;");
      expect(cliOut.markdown).toContain("review the rest of the adopted passes (3)");
      expect(cliOut.markdown).toContain("source=adopted");
      expect(cliOut.junit).toContain(
        '<property name="audit" value="audit of adopted passes: 3 of 3 checked, 1 overturned"/>',
      );

      // exactly the rest of the adopted passes: the queue's source=adopted&verdict=pass
      const rest = await ok(api(server, "GET", `/api/eval/runs/${run.id}/queue?source=adopted&verdict=pass`));
      const restIds: string[] = rest.items.map((r: { id: string }) => r.id);
      expect(restIds).toHaveLength(3);
      expect(restIds.some((x) => sample.includes(x))).toBe(false);
      expect(rest.counts.matching).toBe(3);
      // the neighbours' nextOpen walks that list (an adopted verdict is still to do there)
      const nb = await ok(
        api(server, "GET", `/api/eval/runs/${run.id}/items/${restIds[0]}/neighbours?source=adopted&verdict=pass`),
      );
      expect(nb.nextOpen?.id).toBe(restIds[1]);
      // reviewing them one by one: still failing until the last, then the verdicts decide (5 passes of 6: pass)
      await typePass(server, run.id, restIds[0]!);
      await typePass(server, run.id, restIds[1]!);
      expect((await ok(api(server, "GET", `/api/eval/runs/${run.id}/gate`))).result.status).toBe("fail");
      await typePass(server, run.id, restIds[2]!);
      const passed = await ok(api(server, "GET", `/api/eval/runs/${run.id}/gate`));
      expect(passed.result).toMatchObject({ status: "pass", reasons: [] });
      expect(passed.result.audit).toMatchObject({ overturned: 1, adoptedPassesLeft: 0 });
      expect((await ok(api(server, "GET", `/api/eval/runs/${run.id}/queue?source=adopted`))).items).toEqual([]);

      // the decision is reproducible from stored data: the seed redraws the marks, the history says who typed what
      const { audits } = await ok(api(server, "GET", `/api/eval/runs/${run.id}/audits`));
      expect(drawAuditSample(audits[0].population, audits[0].rate, audits[0].seed)).toEqual(sample);
      const overturned = await ok(api(server, "GET", `/api/eval/runs/${run.id}/items/${sample[2]}`));
      expect(overturned.audit).toBe(true);
      expect(overturned.history.map((h: { after: { verdict: string; source: string } }) => h.after)).toMatchObject([
        { verdict: "pass", source: "adopted" },
        { verdict: "fail", source: "human" },
      ]);
    });
  });
}
