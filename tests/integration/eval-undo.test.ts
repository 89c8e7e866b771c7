import { describe, expect, it } from "vitest";
import { api, minimalWorkflow, ok, servers, signIn, tokenWithRole, trpc, trpcErrorOf } from "./client";

/**
 * Undo of one's own last verdict (POST /runs/{id}/items/{itemId}/verdict/undo, tRPC eval.items.undoVerdict) and the
 * gate's pending state over real HTTP on both databases: who may undo (an annotator; a viewer 403, no token 401),
 * what it restores, and the gate endpoint's status while spot-checks are left.
 */
for (const server of servers()) {
  describe(`verdict undo and the pending gate on ${server.name}`, () => {
    it("undo restores the verdict before one's own (REST and tRPC), refuses others' and stale versions; 401/403; gate pending -> pass", async () => {
      const created = await ok(
        api(server, "POST", "/api/builder/agents", {
          body: { name: `undo agent ${server.name}`, workflow: minimalWorkflow() },
        }),
        201,
      );
      const set = await ok(
        api(server, "POST", "/api/eval/sets", {
          // no audit of adopted passes: the gate below is the spot-check rule's (eval-audit.test.ts has the audit)
          body: { agentId: created.agent.id, name: "Undo", kind: "golden", gateThreshold: 2, auditRate: 0 },
        }),
        201,
      );
      const samples = ["u1", "u2", "u3"].map((key) => ({
        key,
        question: `Recommend a breakfast dish and mention the price (${key})`,
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
      const good = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
      await ok(
        api(server, "POST", `/api/eval/runs/${run.id}/answers`, {
          body: {
            answers: [
              { key: "u1", answer: good },
              { key: "u2", answer: good },
              { key: "u3", answer: "Hello there." },
            ],
          },
        }),
      );
      await ok(api(server, "POST", `/api/eval/runs/${run.id}/adopt`, { body: {} }));
      const gate = await ok(api(server, "GET", `/api/eval/runs/${run.shortId}/gate`));
      expect(gate.result).toMatchObject({ status: "pending", missing: ["1 spot-check left"], spotChecksLeft: ["u3"] });
      expect(gate.input.questions).toEqual([
        { key: "u1", verdict: "pass", source: "adopted", spotCheck: false },
        { key: "u2", verdict: "pass", source: "adopted", spotCheck: false },
        { key: "u3", verdict: "fail", source: "adopted", spotCheck: true },
      ]);

      const rows = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/queue`))).items;
      const u3 = rows.find((r: { key: string }) => r.key === "u3");
      expect(u3).toMatchObject({ spotCheck: true, spotCheckLeft: true });
      const annotator = await tokenWithRole(server, "annotator");
      const viewer = await tokenWithRole(server, "viewer");
      // an annotator passes u3 with a comment: the gate passes (2 adopted + 1 typed)
      const saved = await ok(
        api(server, "PUT", `/api/eval/runs/${run.id}/items/${u3.id}/verdict`, {
          token: annotator,
          body: { verdict: "pass", basis: "a greeting is fine here", expectedVersion: 1 },
        }),
      );
      expect(saved.verdict).toMatchObject({ verdict: "pass", source: "human", basis: "a greeting is fine here" });
      expect((await ok(api(server, "GET", `/api/eval/runs/${run.id}/gate`))).result).toMatchObject({
        status: "pass",
        counts: { pass: 3, passTyped: 1, passAdopted: 2 },
      });
      const path = `/api/eval/runs/${run.id}/items/${u3.id}/verdict/undo`;
      const body = { version: saved.verdictVersion };
      expect((await api(server, "POST", path, { token: null, body })).status).toBe(401);
      const denied = await api(server, "POST", path, { token: viewer, body });
      expect(denied.status).toBe(403);
      expect(denied.body.error.code).toBeTruthy();
      // another person (a user of their own, signed in): not theirs to take back. (The annotator token above was
      // made by the admin, so it is the admin's: a person's tokens are the same person.)
      const email = `other-${server.name}-${Date.now()}@example.com`;
      await trpc(server).admin.users.create.mutate({ email, password: "other-password-1", role: "annotator" });
      const cookie = await signIn(server.url, email, "other-password-1");
      const notMine = await api(server, "POST", path, { token: null, headers: { cookie }, body });
      expect(notMine.status).toBe(409);
      expect(notMine.body.error.code).toBe("VERDICT_NOT_UNDOABLE");
      const stale = await api(server, "POST", path, { token: annotator, body: { version: 1 } });
      expect(stale.status).toBe(409);
      expect(stale.body.error.code).toBe("VERDICT_CONFLICT");
      const undone = await ok(api(server, "POST", path, { token: annotator, body }));
      expect(undone).toMatchObject({ undone: saved.verdictVersion, verdict: { verdict: "fail", source: "adopted" } });
      const item = await ok(api(server, "GET", `/api/eval/runs/${run.id}/items/${u3.id}`));
      expect(item.history.map((h: { after: { verdict: string | null } }) => h.after.verdict)).toEqual([
        "fail",
        "pass",
        "fail",
      ]);
      expect((await ok(api(server, "GET", `/api/eval/runs/${run.id}/gate`))).result.status).toBe("pending");

      // through tRPC: the same operation, the same refusal for a viewer
      const again = await trpc(server, annotator).eval.items.verdict.mutate({
        id: run.id,
        itemId: u3.id,
        body: {
          verdict: "fail",
          basis: "greets only",
          attribution: "generation",
          expectedVersion: undone.verdictVersion,
        },
      });
      const viaViewer = await trpc(server, viewer)
        .eval.items.undoVerdict.mutate({ id: run.id, itemId: u3.id, body: { version: again.verdictVersion } })
        .catch((e: unknown) => trpcErrorOf(e));
      expect(viaViewer).toMatchObject({ httpStatus: 403 });
      const viaTrpc = await trpc(server, annotator).eval.items.undoVerdict.mutate({
        id: run.shortId,
        itemId: u3.id,
        body: { version: again.verdictVersion },
      });
      expect(viaTrpc).toMatchObject({ undone: again.verdictVersion, verdict: { source: "adopted" } });
    });
  });
}
