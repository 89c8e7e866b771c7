import { describe, expect, it } from "vitest";
import { api, servers, tokenWithRole, trpc, ok } from "./client";
import { conditionDetector } from "@/server/eval/testing";

/**
 * The intent shadow over real HTTP on both databases: a live agent whose "intent" is a condition node's branch, a
 * candidate (a draft workflow) with a different rule, live chats shadowed in the background without changing the
 * answer, replay, and the report (agreement, matrix, disagreements).
 */
for (const server of servers()) {
  describe(`intent shadow on ${server.name}`, () => {
    it("configure, shadow live chats in the background, replay, report; roles", async () => {
      const live = conditionDetector('start.query.contains("breakfast")');
      const created = await ok(
        api(server, "POST", "/api/builder/agents", { body: { name: `shadow-${Date.now()}`, workflow: live } }),
        201,
      );
      const agentId = created.agent.id as string;
      await ok(api(server, "POST", `/api/builder/agents/${agentId}/publish`, { body: { version: 1 } }));
      expect((await ok(api(server, "GET", `/api/eval/shadow/${agentId}`))).config).toBeNull();
      expect(
        (await api(server, "POST", `/api/eval/shadow/${agentId}/replay`, { body: { limit: 5 } })).body.error.code,
      ).toBe("SHADOW_NOT_CONFIGURED");

      // the candidate also counts "morning" as breakfast
      const candidate = conditionDetector('start.query.contains("breakfast") || start.query.contains("morning")');
      const badRef = await api(server, "PUT", `/api/eval/shadow/${agentId}`, {
        body: { candidateWorkflow: candidate, liveRef: "{{detect.branch}}", candidateRef: "{{nope.branch}}" },
      });
      expect(badRef.status).toBe(400);
      const viewer = await tokenWithRole(server, "viewer");
      expect(
        (
          await api(server, "PUT", `/api/eval/shadow/${agentId}`, {
            body: { candidateWorkflow: candidate, liveRef: "{{detect.branch}}", candidateRef: "{{detect.branch}}" },
            token: viewer,
          })
        ).status,
      ).toBe(403);
      const saved = await ok(
        api(server, "PUT", `/api/eval/shadow/${agentId}`, {
          body: {
            candidateWorkflow: candidate,
            liveRef: "{{detect.branch}}",
            candidateRef: "{{detect.branch}}",
            sampleRate: 1,
          },
        }),
      );
      expect(saved.config).toMatchObject({
        agentId,
        liveRef: "{{detect.branch}}",
        sampleRate: 1,
        enabled: true,
        candidateVersion: null,
      });

      // live chats: the answers are the live version's, and each is shadowed in the background
      const messages = [
        "breakfast ideas",
        "something for the morning",
        "dinner please",
        "a morning snack",
        "breakfast with tea",
      ];
      const answers = [];
      for (const m of messages)
        answers.push(await ok(api(server, "POST", `/api/agents/${agentId}/chat`, { body: { message: m } })));
      expect(answers[1].answer).toContain("Other: something for the morning"); // the user got the live branch
      let report: any; // eslint-disable-line @typescript-eslint/no-explicit-any
      for (const until = Date.now() + 60_000; Date.now() < until; ) {
        report = await ok(api(server, "GET", `/api/eval/shadow/${agentId}/report`));
        if (report.compared === messages.length) break;
        await new Promise((r) => setTimeout(r, 250)); // not faster: shadow jobs wait for an idle event loop (SHADOW_LIMITS.idleWaitMs)
      }
      expect(report).toMatchObject({ results: 5, compared: 5, agreed: 3, agreement: 0.6, failed: 0 });
      expect(report.matrix).toEqual(
        expect.arrayContaining([
          { live: "true", candidate: "true", count: 2 },
          { live: "false", candidate: "false", count: 1 },
          { live: "false", candidate: "true", count: 2 },
        ]),
      );
      expect(report.disagreements.map((d: { message: string }) => d.message).sort()).toEqual([
        "a morning snack",
        "something for the morning",
      ]);
      expect(report.perDay[0]).toMatchObject({ total: 5, agreed: 3 });
      // the candidate ran at tier pipeline as source shadow, only up to its intent node (no llm call)
      const shadowTraces = (await ok(api(server, "GET", `/api/traces?agentId=${agentId}&source=shadow`))).items;
      expect(shadowTraces.length).toBe(5);
      expect(shadowTraces.every((t: { mode: string }) => t.mode === "pipeline")).toBe(true);
      const one = await ok(api(server, "GET", `/api/traces/${shadowTraces[0].id}`));
      expect(one.steps.map((s: { nodeId: string }) => s.nodeId)).toEqual(["start", "detect", "__shadow_intent"]);

      // replay recomputes over the last chats; off means no more live shadowing
      const replay = await ok(api(server, "POST", `/api/eval/shadow/${agentId}/replay`, { body: { limit: 3 } }));
      expect(replay).toMatchObject({ replayed: 3, ok: 3, failed: 0, report: { results: 5 } });
      await ok(
        api(server, "PUT", `/api/eval/shadow/${agentId}`, {
          body: {
            candidateWorkflow: candidate,
            liveRef: "{{detect.branch}}",
            candidateRef: "{{detect.branch}}",
            enabled: false,
          },
        }),
      );
      await ok(api(server, "POST", `/api/agents/${agentId}/chat`, { body: { message: "morning coffee" } }));
      await new Promise((r) => setTimeout(r, 500));
      expect((await ok(api(server, "GET", `/api/eval/shadow/${agentId}/report`))).results).toBe(5);
    }, 120_000);

    it("cache hits are shadowed; disagreements by pages; a draft's findings; publish the candidate (builders and admins)", async () => {
      const live = conditionDetector('start.query.contains("breakfast")');
      const created = await ok(
        api(server, "POST", "/api/builder/agents", { body: { name: `shadow-pub-${Date.now()}`, workflow: live } }),
        201,
      );
      const agentId = created.agent.id as string;
      await ok(api(server, "POST", `/api/builder/agents/${agentId}/publish`, { body: { version: 1 } }));
      expect((await ok(api(server, "GET", `/api/builder/agents/${agentId}`))).publishedVersion).toBe(1);

      // an invalid draft: 400 WORKFLOW_INVALID with the findings, nothing saved
      const broken = {
        nodes: live.nodes.filter((n) => n.id !== "end"),
        edges: live.edges.filter((e) => e.target !== "end"),
      };
      const refused = await api(server, "PUT", `/api/eval/shadow/${agentId}`, {
        body: { candidateWorkflow: broken, liveRef: "{{detect.branch}}", candidateRef: "{{detect.branch}}" },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe("WORKFLOW_INVALID");
      expect(refused.body.errors.length).toBeGreaterThan(0);
      expect((await ok(api(server, "GET", `/api/eval/shadow/${agentId}`))).config).toBeNull();

      const candidate = conditionDetector('start.query.contains("breakfast") || start.query.contains("morning")');
      const saved = await ok(
        api(server, "PUT", `/api/eval/shadow/${agentId}`, {
          body: {
            candidateWorkflow: candidate,
            candidateNote: "file candidate.json",
            liveRef: "{{detect.branch}}",
            candidateRef: "{{detect.branch}}",
            sampleRate: 1,
          },
        }),
      );
      expect(saved).toMatchObject({
        config: { candidateNote: "file candidate.json", candidateVersion: null },
        warnings: [],
      });

      // 23 "morning" chats disagree; the same question again is answered from the cache and shadowed too
      const traces: string[] = [];
      for (let i = 0; i < 23; i++)
        traces.push(
          (await ok(api(server, "POST", `/api/agents/${agentId}/chat`, { body: { message: `morning ${i}` } }))).traceId,
        );
      const again = await ok(
        api(server, "POST", `/api/agents/${agentId}/chat`, { body: { message: "  morning   0" } }),
      );
      expect(again.cache).toBe("hit");
      let report: any; // eslint-disable-line @typescript-eslint/no-explicit-any
      for (const until = Date.now() + 120_000; Date.now() < until; ) {
        report = await ok(api(server, "GET", `/api/eval/shadow/${agentId}/report`));
        if (report.compared === 24) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(report).toMatchObject({ results: 24, compared: 24, agreed: 0, missingLive: 0 });
      const pages: string[][] = [];
      let cursor: string | null = null;
      do {
        const page: any = await ok(
          api(server, "GET", `/api/eval/shadow/${agentId}/disagreements?limit=10${cursor ? `&cursor=${cursor}` : ""}`),
        ); // eslint-disable-line @typescript-eslint/no-explicit-any
        expect(page.total).toBe(24);
        pages.push(page.items.map((d: { traceId: string }) => d.traceId));
        cursor = page.nextCursor;
      } while (cursor);
      expect(pages.map((p) => p.length)).toEqual([10, 10, 4]);
      expect(new Set(pages.flat())).toEqual(new Set([...traces, again.traceId]));
      expect((await api(server, "GET", `/api/eval/shadow/${agentId}/disagreements?limit=500`)).status).toBe(400);
      const viaTrpc = await trpc(server).eval.shadow.disagreements.query({ agentId, query: { limit: 5 } });
      expect(viaTrpc.items).toHaveLength(5);

      // publish: an annotator may not; a builder provisions the draft as version 2 and publishes it
      const annotator = await tokenWithRole(server, "annotator");
      expect((await api(server, "POST", `/api/eval/shadow/${agentId}/publish`, { token: annotator })).status).toBe(403);
      const builder = await tokenWithRole(server, "builder");
      const published = await ok(api(server, "POST", `/api/eval/shadow/${agentId}/publish`, { token: builder }));
      expect(published).toMatchObject({
        version: 2,
        provisioned: true,
        publishedVersion: 2,
        config: { candidateVersion: 2, enabled: false },
      });
      expect((await ok(api(server, "GET", `/api/builder/agents/${agentId}`))).publishedVersion).toBe(2);
      expect((await ok(api(server, "GET", `/api/builder/agents/${agentId}/versions/2`))).note).toBe(
        "intent-shadow candidate (file candidate.json)",
      );
      // online users now get the candidate: "morning" takes the breakfast branch; the shadow is off
      expect(
        (await ok(api(server, "POST", `/api/agents/${agentId}/chat`, { body: { message: "a morning walk" } }))).answer,
      ).toContain("Breakfast: a morning walk");
      await new Promise((r) => setTimeout(r, 500));
      expect((await ok(api(server, "GET", `/api/eval/shadow/${agentId}/report`))).results).toBe(24);
      const unconfigured = await ok(
        api(server, "POST", "/api/builder/agents", { body: { name: `shadow-none-${Date.now()}`, workflow: live } }),
        201,
      );
      expect((await api(server, "POST", `/api/eval/shadow/${unconfigured.agent.id}/publish`)).body.error.code).toBe(
        "SHADOW_NOT_CONFIGURED",
      );
    }, 200_000);
  });
}
