import { describe, expect, it } from "vitest";
import { api, minimalWorkflow, servers, ok } from "./client";
import type { ServerInfo } from "./global-setup";

/**
 * What the evaluation pages ask of the server at scale, over real HTTP on both databases: the comparison paged and
 * filtered on the server (outcome, text) with counts per outcome; the runs list's progress (adopted verdicts, fails
 * without a Bad Case) and its search; the Bad Case list filtered by run, set and scenario.
 */

const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const BAD = "Sorry, I cannot help with that.";

const key = (i: number) => `q${String(i + 1).padStart(2, "0")}`;
function questions(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    key: key(i),
    question: `Please recommend a breakfast dish and mention the price (${i + 1})`,
    expected_points: ["recommends a breakfast dish", "mentions the price"],
    classification: i % 3 === 0 ? "price" : "breakfast",
  }));
}

async function frozenSet(server: ServerInfo, agentId: string, name: string, n: number) {
  const set = await ok(
    api(server, "POST", "/api/eval/sets", { body: { agentId, name, kind: "golden", gateThreshold: 1 } }),
    201,
  );
  await ok(
    api(server, "POST", `/api/eval/sets/${set.id}/versions/1/import`, {
      body: { format: "json", content: JSON.stringify(questions(n)) },
    }),
  );
  const v = await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`));
  return { setId: set.id as string, versionId: v.id as string };
}

/** A pasted run whose answers are bad where `bad(i)`, good elsewhere; `skip` questions get no answer yet (no verdict); suggestions adopted. */
async function judgedRun(
  server: ServerInfo,
  body: Record<string, unknown>,
  n: number,
  bad: (i: number) => boolean,
  skip: number[] = [],
  path = "/api/eval/runs",
) {
  const run = await ok(api(server, "POST", path, { body }), 201);
  await ok(api(server, "POST", `/api/eval/runs/${run.id}/start`));
  const answers = Array.from({ length: n }, (_, i) => i)
    .filter((i) => !skip.includes(i))
    .map((i) => ({ key: key(i), answer: bad(i) ? BAD : GOOD }));
  await ok(api(server, "POST", `/api/eval/runs/${run.id}/answers`, { body: { answers } }));
  await ok(api(server, "POST", `/api/eval/runs/${run.id}/adopt`, { body: {} }));
  return run as { id: string; shortId: string };
}

for (const server of servers()) {
  describe(`evaluation pages' server side on ${server.name}`, () => {
    const N = 40;
    let agentId: string;
    let set1: { setId: string; versionId: string };
    let runA: { id: string; shortId: string };
    let runB: { id: string; shortId: string };

    it("the comparison pages and filters on the server; the summary counts the whole comparison", async () => {
      agentId = (
        await ok(
          api(server, "POST", "/api/builder/agents", {
            body: { name: `pages agent ${server.name}`, workflow: minimalWorkflow() },
          }),
          201,
        )
      ).agent.id;
      set1 = await frozenSet(server, agentId, "Pages golden", N);
      // A fails where i % 4 == 1; its re-run B fails where i % 4 == 0 and never answers the last question
      runA = await judgedRun(
        server,
        { setVersionId: set1.versionId, mode: "pasted", tier: "pipeline_live", environment: "pages-it" },
        N,
        (i) => i % 4 === 1,
      );
      runB = await judgedRun(server, {}, N, (i) => i % 4 === 0, [N - 1], `/api/eval/runs/${runA.id}/rerun`);

      // without limit: every question, as before paging existed (plus `page`)
      const all = await ok(api(server, "GET", `/api/eval/runs/compare?run_a=${runA.shortId}&run_b=${runB.shortId}`));
      expect(all.questions).toHaveLength(N);
      expect(all.summary).toMatchObject({ regressed: 10, fixed: 10, both_pass: 19, incomplete: 1, both_fail: 0 });
      expect(all.page).toEqual({ offset: 0, limit: null, total: N, matching: all.summary });
      expect(all.questions[0]).toMatchObject({
        key: "q01",
        question: expect.stringContaining("(1)"),
        classification: "price",
        outcome: "regressed",
      });

      // one page of one outcome: only regressions, in set order, with their text; the summary still counts all
      const first = await ok(
        api(
          server,
          "GET",
          `/api/eval/runs/compare?run_a=${runA.shortId}&run_b=${runB.shortId}&outcome=regressed&limit=4`,
        ),
      );
      expect(first.questions.map((q: { key: string }) => q.key)).toEqual(["q01", "q05", "q09", "q13"]);
      expect(
        first.questions.every(
          (q: { outcome: string; question: string }) => q.outcome === "regressed" && q.question.length > 0,
        ),
      ).toBe(true);
      expect(first.page).toMatchObject({ offset: 0, limit: 4, total: 10 });
      expect(first.summary).toEqual(all.summary);
      const last = await ok(
        api(
          server,
          "GET",
          `/api/eval/runs/compare?run_a=${runA.id}&run_b=${runB.id}&outcome=regressed&limit=4&offset=8`,
        ),
      );
      expect(last.questions.map((q: { key: string }) => q.key)).toEqual(["q33", "q37"]);
      const incomplete = await ok(
        api(server, "GET", `/api/eval/runs/compare?run_a=${runA.id}&run_b=${runB.id}&outcome=incomplete&limit=50`),
      );
      expect(incomplete.questions).toEqual([
        expect.objectContaining({ key: "q40", b: expect.objectContaining({ human: null }) }),
      ]);

      // a text search (a key, any case, or words of the question) narrows first; the counts per outcome follow it
      const byKey = await ok(
        api(server, "GET", `/api/eval/runs/compare?run_a=${runA.id}&run_b=${runB.id}&q=Q05&limit=50`),
      );
      expect(byKey.questions.map((q: { key: string }) => q.key)).toEqual(["q05"]);
      expect(byKey.page.matching).toMatchObject({ regressed: 1, fixed: 0, both_pass: 0 });
      const byText = await ok(
        api(
          server,
          "GET",
          `/api/eval/runs/compare?run_a=${runA.id}&run_b=${runB.id}&q=${encodeURIComponent("(7)")}&outcome=fixed&limit=50`,
        ),
      );
      expect(byText.questions).toEqual([]);
      expect(byText.page).toMatchObject({ total: 0, matching: { both_pass: 1, fixed: 0 } });

      // the same through tRPC (the page's face)
      const viaTrpc = await ok(
        api(
          server,
          "GET",
          `/api/trpc/eval.runs.compare?input=${encodeURIComponent(JSON.stringify({ run_a: runA.shortId, run_b: runB.shortId, outcome: "fixed", limit: 3, offset: 3 }))}`,
        ),
      );
      expect(viaTrpc.result.data.questions.map((q: { key: string }) => q.key)).toEqual(["q14", "q18", "q22"]);

      // bad input is a 400 in the one error shape
      for (const bad of ["outcome=better", "limit=0", "limit=501", "offset=-1"]) {
        const r = await api(server, "GET", `/api/eval/runs/compare?run_a=${runA.id}&run_b=${runB.id}&${bad}`);
        expect(r.status, bad).toBe(400);
        expect(r.body.error.code).toBe("REQUEST_INVALID");
      }
    });

    it("runs list: adopted verdicts apart from people's, fails without a Bad Case, search", async () => {
      // a person changes one of A's adopted fails (scenario drinks): 39 adopted + 1 by a person
      const items = (await ok(api(server, "GET", `/api/eval/runs/${runA.id}/items?verdict=fail&limit=1`))).items;
      expect(items[0].key).toBe("q02");
      await ok(
        api(server, "PUT", `/api/eval/runs/${runA.id}/items/${items[0].id}/verdict`, {
          body: { verdict: "fail", basis: "refused", attribution: "generation", classification: "drinks" },
        }),
      );
      const list = await ok(api(server, "GET", `/api/eval/runs?agentId=${agentId}`));
      const a = list.items.find((r: { id: string }) => r.id === runA.id);
      expect(a.progress).toMatchObject({ total: N, judged: N, adopted: N - 1, fails: 10, unfiledFails: 10 });
      const b = list.items.find((r: { id: string }) => r.id === runB.id);
      expect(b.progress).toMatchObject({ judged: N - 1, adopted: N - 1, fails: 10, unfiledFails: 10 });

      expect((await ok(api(server, "POST", `/api/eval/runs/${runA.id}/bad-cases`))).created).toBe(10);
      const unfiled = await ok(api(server, "GET", `/api/eval/runs?agentId=${agentId}&unfiledFails=true`));
      expect(unfiled.items.map((r: { id: string }) => r.id)).toEqual([runB.id]);
      expect((await ok(api(server, "GET", `/api/eval/runs/${runA.id}`))).progress).toMatchObject({
        fails: 10,
        unfiledFails: 0,
      });
      // search: the short Run ID (any case), the set's name, the environment
      expect(
        (await ok(api(server, "GET", `/api/eval/runs?agentId=${agentId}&q=${runB.shortId.toLowerCase()}`))).items.map(
          (r: { id: string }) => r.id,
        ),
      ).toEqual([runB.id]);
      expect((await ok(api(server, "GET", `/api/eval/runs?agentId=${agentId}&q=pages%20GOLDEN`))).items).toHaveLength(
        2,
      );
      expect(
        (await ok(api(server, "GET", `/api/eval/runs?agentId=${agentId}&q=pages-it&unfiledFails=false`))).items,
      ).toHaveLength(2);
      expect((await ok(api(server, "GET", `/api/eval/runs?agentId=${agentId}&q=nothing-like-this`))).items).toEqual([]);
      expect((await api(server, "GET", `/api/eval/runs?unfiledFails=maybe`)).status).toBe(400);
    });

    it("Bad Case list filters on the server: run, set, scenario (the verdict's, else the sample's)", async () => {
      expect((await ok(api(server, "POST", `/api/eval/runs/${runB.shortId}/bad-cases`))).created).toBe(10);
      const set2 = await frozenSet(server, agentId, "Pages other", 4);
      const runC = await judgedRun(
        server,
        { setVersionId: set2.versionId, mode: "pasted", tier: "pipeline" },
        4,
        () => true,
      );
      expect((await ok(api(server, "POST", `/api/eval/runs/${runC.id}/bad-cases`))).created).toBe(4);

      const list = async (query: string) =>
        (await ok(api(server, "GET", `/api/eval/bad-cases?agentId=${agentId}&limit=200&${query}`))).items as Array<{
          runId: string;
          setId: string;
          classification: string;
          sampleKey: string;
        }>;
      expect(await list("")).toHaveLength(24);
      expect(await list(`setId=${set1.setId}`)).toHaveLength(20);
      expect((await list(`setId=${set2.setId}`)).every((b) => b.runId === runC.id)).toBe(true);
      expect(await list(`runId=${runB.shortId}`)).toHaveLength(10);
      expect(await list(`runId=${runB.id}&setId=${set2.setId}`)).toEqual([]);
      // A's fails are q02 q06 ... q38 (i % 4 == 1): scenario price where i % 3 == 0 (q10 q22 q34); q02 was re-filed as drinks by a person
      const price = await list(`runId=${runA.shortId}&classification=price`);
      expect(price.map((b) => b.sampleKey).sort()).toEqual(["q10", "q22", "q34"]);
      expect((await list(`runId=${runA.shortId}&classification=drinks`)).map((b) => b.sampleKey)).toEqual(["q02"]);
      const breakfast = await list(`runId=${runA.shortId}&classification=breakfast`);
      expect(breakfast).toHaveLength(6);
      expect(breakfast.every((b) => b.classification === "breakfast")).toBe(true);
      expect(await list("classification=nothing-like-this")).toEqual([]);
    });
  });
}
