import { describe, expect, it } from "vitest";
import { api, minimalWorkflow, servers, tokenWithRole, trpc, ok } from "./client";

/**
 * What the annotation page reads besides the queue's rows, over real HTTP on both databases: the review progress
 * counted now (GET /runs/{id}/progress) and one item's place and the items around it under the queue filters
 * (GET /runs/{id}/items/{itemId}/neighbours); each response is checked against its documented schema by api().
 */
for (const server of servers()) {
  describe(`annotation queue reads on ${server.name}`, () => {
    it("progress after verdicts and adoption; an item's neighbours beyond the first page; the same through tRPC; 400/404/401 in the one error shape", async () => {
      const created = await ok(
        api(server, "POST", "/api/builder/agents", {
          body: { name: `annotation agent ${server.name}`, workflow: minimalWorkflow() },
        }),
        201,
      );
      const set = await ok(
        api(server, "POST", "/api/eval/sets", {
          // no audit of adopted passes: the counts below are the spot-check rule's (eval-audit.test.ts has the audit)
          body: { agentId: created.agent.id, name: "Queue nav", kind: "golden", gateThreshold: 1, auditRate: 0 },
        }),
        201,
      );
      const samples = Array.from({ length: 130 }, (_, i) => ({
        key: `n${String(i + 1).padStart(3, "0")}`,
        question: `Recommend a breakfast dish and mention the price (${i + 1})`,
        expected_points: ["recommends a breakfast dish", "mentions the price"],
      }));
      await ok(
        api(server, "POST", `/api/eval/sets/${set.id}/versions/1/import`, {
          body: { format: "json", content: JSON.stringify(samples) },
        }),
      );
      const v = await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`));
      const run = await ok(
        api(server, "POST", "/api/eval/runs", { body: { setVersionId: v.id, mode: "pasted" } }),
        201,
      );
      // every fifth answer is bad: a fail suggestion, a spot-check item
      const answers = samples.map((s, i) => ({
        key: s.key,
        answer: i % 5 === 4 ? "Hello there." : "I recommend the scallion pancake breakfast dish; the price is 12 yuan.",
      }));
      await ok(api(server, "POST", `/api/eval/runs/${run.id}/answers`, { body: { answers } }));

      const progress = await ok(api(server, "GET", `/api/eval/runs/${run.shortId}/progress`));
      expect(progress.counts).toEqual({
        total: 130,
        judged: 0,
        human: 0,
        adopted: 0,
        spotCheckLeft: 26,
        adoptable: 130,
        unknownOpen: 0,
      });
      expect(progress.progress).toMatchObject({ total: 130, answered: 130, judged: 0 });

      const first = await ok(api(server, "GET", `/api/eval/runs/${run.id}/queue?limit=100`));
      const second = await ok(
        api(server, "GET", `/api/eval/runs/${run.id}/queue?limit=100&cursor=${first.nextCursor}`),
      );
      const rows = [...first.items, ...second.items];
      expect(rows).toHaveLength(130);
      const id = (n: number) => rows[n - 1].id as string;
      await ok(
        api(server, "PUT", `/api/eval/runs/${run.id}/items/${id(5)}/verdict`, {
          body: { verdict: "fail", basis: "no dish", attribution: "generation", expectedVersion: 0 },
        }),
      );
      expect((await ok(api(server, "GET", `/api/eval/runs/${run.id}/progress`))).counts).toMatchObject({
        judged: 1,
        human: 1,
        spotCheckLeft: 25,
        adoptable: 129,
      });

      // item 120 (beyond the first page of 100): its place and the items around it
      const around = await ok(api(server, "GET", `/api/eval/runs/${run.id}/items/${id(120)}/neighbours`));
      expect(around).toMatchObject({ itemId: id(120), position: 120, matching: 130, firstPosition: 100 });
      expect(around.before.at(-1).key).toBe("n119");
      expect(around.after.map((r: { key: string }) => r.key)).toEqual(
        Array.from({ length: 10 }, (_, i) => `n${121 + i}`),
      );
      expect(around.nextOpen.key).toBe("n121");
      // under the spot-check filter (n005, n010, ...): item 120 is the 24th; item 121 is not listed but placed
      const spot = await ok(api(server, "GET", `/api/eval/runs/${run.id}/items/${id(120)}/neighbours?spotCheck=true`));
      expect(spot).toMatchObject({ position: 24, matching: 26, nextOpen: { key: "n125" } });
      expect([spot.before.at(-1).key, spot.after[0].key]).toEqual(["n115", "n125"]);
      const off = await ok(
        api(server, "GET", `/api/eval/runs/${run.id}/items/${id(121)}/neighbours?spotCheck=true&verdict=none`),
      );
      expect(off).toMatchObject({ position: null, matching: 25 });
      // the same through tRPC (the page's face)
      const viaTrpc = await trpc(server).eval.items.neighbours.query({
        id: run.id,
        itemId: id(120),
        query: { spotCheck: true },
      });
      expect(viaTrpc.position).toBe(24);
      expect((await trpc(server).eval.items.progress.query({ id: run.shortId })).counts.adoptable).toBe(129);

      // errors: a bad filter is 400, an unknown item or run 404, in the one shape
      const bad = await api(server, "GET", `/api/eval/runs/${run.id}/items/${id(1)}/neighbours?verdict=maybe`);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({
        code: expect.any(String),
        message: expect.any(String),
        details: expect.any(Array),
      });
      expect((await api(server, "GET", `/api/eval/runs/${run.id}/items/nope/neighbours`)).status).toBe(404);
      expect((await api(server, "GET", "/api/eval/runs/R-ZZZZZ/progress")).status).toBe(404);
      // a viewer reads them; no token is 401
      const viewer = await tokenWithRole(server, "viewer");
      expect((await api(server, "GET", `/api/eval/runs/${run.id}/progress`, { token: viewer })).status).toBe(200);
      expect((await api(server, "GET", `/api/eval/runs/${run.id}/progress`, { token: null })).status).toBe(401);

      // after adoption nothing is adoptable; the spot-check items wait for a person
      await ok(api(server, "POST", `/api/eval/runs/${run.id}/adopt`, { body: {} }));
      expect((await ok(api(server, "GET", `/api/eval/runs/${run.id}/progress`))).counts).toEqual({
        total: 130,
        judged: 130,
        human: 1,
        adopted: 129,
        spotCheckLeft: 25,
        adoptable: 0,
        unknownOpen: 0,
      });
      expect((await ok(api(server, "GET", `/api/eval/runs/${run.id}/items/${id(1)}/neighbours`))).nextOpen).toBeNull();
    });
  });
}
