import { describe, expect, it } from "vitest";
import { api, minimalWorkflow, servers, ok } from "./client";
import type { ServerInfo } from "./global-setup";

/**
 * The whole online feedback loop over real HTTP, on both databases, the way the spec (3.7) walks it:
 * chat -> low feedback -> lead -> add to the pool -> confirm -> expectations -> freeze -> regression run at
 * pipeline_live (started) -> human verdicts -> a Bad Case for every fail -> re-run on a new agent version -> the
 * comparison marks the Bad Case's question fixed -> the Bad Case verified (refused before the passing re-run). The board
 * follows every step; a later run that fails the verified question takes it back to "in a run".
 */
async function settled(server: ServerInfo, runId: string) {
  const until = Date.now() + 90_000;
  for (;;) {
    const run = await ok(api(server, "GET", `/api/eval/runs/${runId}`));
    if (run.status === "awaiting_review") return run;
    if (Date.now() > until) throw new Error(`run ${runId} stayed ${run.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

type Card = {
  key: string;
  stage: string;
  sampleId: string;
  confirmed: boolean;
  run: { shortId: string; itemId: string; verdict: string | null } | null;
  badCase: { id: string; status: string; verifyIn: string | null } | null;
  compare: { a: string; b: string } | null;
  history: Array<{
    kind: string;
    verdict?: string | null;
    status?: string;
    run?: { shortId: string };
    by: string | null;
  }>;
};

for (const server of servers()) {
  describe(`the whole online loop on ${server.name}`, () => {
    it("lead -> pool -> confirm -> expectations -> freeze -> pipeline_live run -> fail -> Bad Case -> re-run on a fix -> fixed -> verified", async () => {
      const created = await ok(
        api(server, "POST", "/api/builder/agents", {
          body: { name: `loop-walk-${Date.now()}`, workflow: minimalWorkflow() },
        }),
        201,
      );
      const agentId = created.agent.id as string;
      await ok(api(server, "POST", `/api/builder/agents/${agentId}/publish`, { body: { version: 1 } }));
      const board = async (): Promise<Card> =>
        (await ok(api(server, "GET", `/api/eval/online/board?agentId=${agentId}`))).cards[0];

      // chat -> low feedback -> lead
      const answer = await ok(
        api(server, "POST", `/api/agents/${agentId}/chat`, { body: { message: "a breakfast without eggs?" } }),
      );
      await ok(
        api(server, "POST", `/api/traces/${answer.traceId}/feedback`, {
          body: { score: 1, comment: "it suggested an omelette" },
        }),
        201,
      );
      const leads = await ok(api(server, "GET", `/api/eval/online/leads?agentId=${agentId}&status=new`));
      expect(leads.items[0]).toMatchObject({ traceId: answer.traceId, signals: ["low_score"], status: "new" });
      expect((await ok(api(server, "GET", `/api/eval/online/leads/per-day?agentId=${agentId}`))).byStatus).toEqual({
        new: 1,
        in_pool: 0,
        dismissed: 0,
      });

      // add to the pool -> candidate; confirm -> confirmed; expectations -> expectations
      const pool = await ok(
        api(server, "POST", "/api/eval/sets", {
          body: { agentId, name: "Walk pool", kind: "regression_pool", gateThreshold: 0 },
        }),
        201,
      );
      const added = await ok(
        api(server, "POST", `/api/eval/sets/${pool.id}/pool`, { body: { traceId: answer.traceId } }),
        201,
      );
      expect(
        (await ok(api(server, "GET", `/api/eval/online/leads?agentId=${agentId}&status=in_pool`))).items[0].pool,
      ).toMatchObject({ sampleId: added.sample.id });
      expect(await board()).toMatchObject({ stage: "candidate", confirmed: false, run: null });
      const freezeEarly = await api(server, "POST", `/api/eval/sets/${pool.id}/versions/1/freeze`);
      expect(freezeEarly.body.error.code).toBe("SET_VERSION_INCOMPLETE"); // no expectations yet
      await ok(api(server, "POST", `/api/eval/samples/${added.sample.id}/confirm`));
      expect((await board()).stage).toBe("confirmed");
      await ok(
        api(server, "PATCH", `/api/eval/samples/${added.sample.id}`, {
          body: { expectedPoints: ["suggests a dish without eggs"] },
        }),
      );
      expect((await board()).stage).toBe("expectations");

      // freeze -> frozen; a regression run at pipeline_live, started -> in_run, not judged
      const version = await ok(api(server, "POST", `/api/eval/sets/${pool.id}/versions/1/freeze`));
      expect((await board()).stage).toBe("frozen");
      const run = await ok(
        api(server, "POST", "/api/eval/runs", {
          body: { setVersionId: version.id, mode: "in_platform", tier: "pipeline_live", environment: "regression" },
        }),
        201,
      );
      await ok(api(server, "POST", `/api/eval/runs/${run.id}/start`));
      await settled(server, run.id);
      const item = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/items`))).items[0];
      expect(await board()).toMatchObject({
        stage: "in_run",
        run: { shortId: run.shortId, itemId: item.id, verdict: null },
      });

      // a person fails it; a Bad Case for every fail -> bad_case
      await ok(
        api(server, "PUT", `/api/eval/runs/${run.id}/items/${item.id}/verdict`, {
          body: { verdict: "fail", basis: "suggests an omelette again", attribution: "generation" },
        }),
      );
      expect((await board()).run?.verdict).toBe("fail");
      const cases = await ok(api(server, "POST", `/api/eval/runs/${run.id}/bad-cases`));
      expect(cases.created).toBe(1);
      expect((await ok(api(server, "POST", `/api/eval/runs/${run.id}/bad-cases`))).created).toBe(0); // idempotent
      const badCase = cases.items[0];
      expect(await board()).toMatchObject({ stage: "bad_case", badCase: { id: badCase.id, status: "open" } });
      // not verified before a passing re-run
      const early = await api(server, "PATCH", `/api/eval/bad-cases/${badCase.id}`, { body: { status: "verified" } });
      expect(early.status).toBe(409);
      expect(early.body.error.code).toBe("BAD_CASE_NOT_VERIFIED");
      await ok(api(server, "PATCH", `/api/eval/bad-cases/${badCase.id}`, { body: { status: "fixing" } }));
      expect((await board()).badCase).toMatchObject({ verifyIn: null });

      // a pass pasted into a later run is no evidence (issue 28 item 6): the board offers no "verify" for it
      const pasted = await ok(
        api(server, "POST", "/api/eval/runs", {
          body: { setVersionId: version.id, mode: "pasted", environment: "it" },
        }),
        201,
      );
      await ok(
        api(server, "POST", `/api/eval/runs/${pasted.id}/answers`, {
          body: { format: "csv", content: `key,answer\n${added.sample.key},A vegan congee with scallions.\n` },
        }),
      );
      const pastedItem = (await ok(api(server, "GET", `/api/eval/runs/${pasted.id}/items`))).items[0];
      await ok(
        api(server, "PUT", `/api/eval/runs/${pasted.id}/items/${pastedItem.id}/verdict`, { body: { verdict: "pass" } }),
      );
      expect(await board()).toMatchObject({
        stage: "bad_case",
        run: { shortId: pasted.shortId, verdict: "pass" },
        badCase: { id: badCase.id, verifyIn: null },
      });

      // the fix: a new agent version; re-run the same batch on it
      const fixed = minimalWorkflow();
      (fixed.nodes[1] as { config: { systemPrompt: string } }).config.systemPrompt =
        "You recommend dishes without eggs when asked.";
      const v2 = await ok(
        api(server, "POST", `/api/builder/agents/${agentId}/versions`, { body: { workflow: fixed, note: "no eggs" } }),
        201,
      );
      await ok(
        api(server, "POST", `/api/builder/agents/${agentId}/publish`, { body: { version: v2.version.version ?? 2 } }),
      );
      const rerun = await ok(api(server, "POST", `/api/eval/runs/${run.id}/rerun`, { body: {} }), 201);
      expect(rerun).toMatchObject({ rerunOfId: run.id, tier: "pipeline_live", mode: "in_platform" });
      expect(rerun.workflowVersion).toBe(2);
      await ok(api(server, "POST", `/api/eval/runs/${rerun.id}/start`));
      await settled(server, rerun.id);
      const again = (await ok(api(server, "GET", `/api/eval/runs/${rerun.id}/items`))).items[0];
      // still a Bad Case until someone judges the re-run and verifies
      expect(await board()).toMatchObject({
        stage: "bad_case",
        run: { shortId: rerun.shortId, verdict: null },
        compare: { a: run.shortId, b: rerun.shortId },
      });
      await ok(
        api(server, "PUT", `/api/eval/runs/${rerun.id}/items/${again.id}/verdict`, { body: { verdict: "pass" } }),
      );
      // a platform run of the new version with a person's pass: the board offers to verify by it
      expect((await board()).badCase).toMatchObject({ id: badCase.id, verifyIn: rerun.shortId });

      // the comparison marks the Bad Case's question fixed
      const cmp = await ok(api(server, "GET", `/api/eval/runs/compare?run_a=${run.shortId}&run_b=${rerun.shortId}`));
      expect(cmp.badCases).toMatchObject({ fixed: 1, stillFailing: 0 });
      expect(cmp.questions[0]).toMatchObject({
        key: added.sample.key,
        outcome: "fixed",
        badCase: { id: badCase.id, result: "fixed" },
      });

      // verified now, by the re-run
      const verified = await ok(
        api(server, "PATCH", `/api/eval/bad-cases/${badCase.id}`, { body: { status: "verified" } }),
      );
      expect(verified).toMatchObject({ status: "verified", verifiedRunId: rerun.id });
      const card = await board();
      expect(card).toMatchObject({ stage: "verified", compare: { a: run.shortId, b: rerun.shortId } });
      expect(card.history.map((h) => h.kind)).toEqual([
        "added",
        "confirmed",
        "expectations",
        "frozen",
        "run",
        "bad_case",
        "run",
        "run",
        "verified",
      ]);
      expect(card.history.find((h) => h.kind === "verified")?.run?.shortId).toBe(rerun.shortId);
      expect(card.history.filter((h) => h.kind === "run").map((h) => h.verdict)).toEqual(["fail", "pass", "pass"]); // the pasted pass, then the re-run's
      expect(card.history[0]!.by).toBeTruthy();

      // a later run that fails the verified question: the board says so (in a run, fail), not "verified"
      const third = await ok(api(server, "POST", `/api/eval/runs/${rerun.id}/rerun`, { body: {} }), 201);
      await ok(api(server, "POST", `/api/eval/runs/${third.id}/start`));
      await settled(server, third.id);
      const thirdItem = (await ok(api(server, "GET", `/api/eval/runs/${third.id}/items`))).items[0];
      await ok(
        api(server, "PUT", `/api/eval/runs/${third.id}/items/${thirdItem.id}/verdict`, {
          body: { verdict: "fail", basis: "eggs are back", attribution: "generation" },
        }),
      );
      expect(await board()).toMatchObject({ stage: "in_run", run: { shortId: third.shortId, verdict: "fail" } });
      // its own Bad Case moves it to bad_case again
      await ok(api(server, "POST", `/api/eval/runs/${third.id}/bad-cases`));
      expect((await board()).stage).toBe("bad_case");
    });
  });
}
