import { createTRPCClient, httpLink } from "@trpc/client";
import { describe, expect, it } from "vitest";
import type { AppRouter } from "@/server/api/root";
import { api, minimalWorkflow, ok, servers, signIn, tokenWithRole, trpc, trpcErrorOf } from "./client";
import type { ServerInfo } from "./global-setup";

/**
 * Several people, one verdict (issue 23) over real HTTP on both databases: a set with two reviewers per item, two
 * people reviewing in their own browser sessions (REST and tRPC), blind review, agreement, a dispute and its
 * adjudication (two adjudicators at once: one wins, the other 409 with the winner's verdict), the gate's
 * GATE_DISPUTED and GATE_REVIEWER_AGREEMENT, the report's reviewerAgreement, and an API token reviewing as its owner.
 */

type Person = { id: string; cookie: string };

async function person(server: ServerInfo, name: string, role: "annotator" | "builder"): Promise<Person> {
  const email = `${name}-${server.name}-${Date.now()}@example.com`;
  const user = await trpc(server).admin.users.create.mutate({ email, password: `${name}-password-1`, role });
  return { id: user.id, cookie: await signIn(server.url, email, `${name}-password-1`) };
}

const trpcAs = (server: ServerInfo, p: Person) =>
  createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${server.url}/api/trpc`, headers: () => ({ cookie: p.cookie }) })],
  });

const as = (p: Person) => ({ token: null, headers: { cookie: p.cookie } });

for (const server of servers()) {
  describe(`reviewers per item and adjudication on ${server.name}`, () => {
    it("two reviewers: blind until one's own verdict, agreement is final, a dispute waits for one adjudicator; the gate and the report", async () => {
      const created = await ok(
        api(server, "POST", "/api/builder/agents", {
          body: { name: `reviewers agent ${server.name}`, workflow: minimalWorkflow() },
        }),
        201,
      );
      const set = await ok(
        api(server, "POST", "/api/eval/sets", {
          body: {
            agentId: created.agent.id,
            name: "Two reviewers",
            kind: "golden",
            gateThreshold: 2,
            reviewsPerItem: 2,
            minReviewerKappa: 0.6,
          },
        }),
        201,
      );
      expect(set).toMatchObject({ reviewsPerItem: 2, minReviewerKappa: 0.6 });
      const keys = ["r1", "r2", "r3", "r4"];
      await ok(
        api(server, "POST", `/api/eval/sets/${set.id}/versions/1/import`, {
          body: {
            format: "json",
            content: JSON.stringify(
              keys.map((key, i) => ({
                key,
                question: `Recommend a breakfast dish and mention the price (${key})`,
                expected_points: ["recommends a breakfast dish", "mentions the price"],
                classification: i < 2 ? "breakfast" : "price",
              })),
            ),
          },
        }),
      );
      const v = await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`));
      const run = await ok(
        api(server, "POST", "/api/eval/runs", { body: { setVersionId: v.id, mode: "pasted" } }),
        201,
      );
      expect(run).toMatchObject({ reviewsPerItem: 2, minReviewerKappa: 0.6 });
      await ok(
        api(server, "POST", `/api/eval/runs/${run.id}/answers`, {
          body: { answers: keys.map((key) => ({ key, answer: "Try the scallion pancake, 12 yuan." })) },
        }),
      );
      // a change to the set affects new runs only
      await ok(api(server, "PATCH", `/api/eval/sets/${set.id}`, { body: { reviewsPerItem: 3 } }));
      expect(await ok(api(server, "GET", `/api/eval/runs/${run.id}`))).toMatchObject({
        reviewsPerItem: 2,
        setReviewsPerItem: 3,
      });

      const alice = await person(server, "alice", "annotator");
      const bob = await person(server, "bob", "annotator");
      const carol = await person(server, "carol", "builder");
      const items = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/items`))).items as Array<{
        id: string;
        key: string;
      }>;
      const id = Object.fromEntries(items.map((i) => [i.key, i.id])) as Record<string, string>;
      const verdict = (p: Person, key: string, body: Record<string, unknown>) =>
        api(server, "PUT", `/api/eval/runs/${run.id}/items/${id[key]}/verdict`, { ...as(p), body });
      const fail = (basis: string) => ({ verdict: "fail", basis, attribution: "generation" });

      // alice reviews every item: no verdict is final with one review of two
      const first = await ok(verdict(alice, "r1", { verdict: "pass", basis: "alice: fine" }));
      expect(first).toMatchObject({
        status: "answered",
        verdict: null,
        reviews: { needed: 2, given: 1, state: "open", mine: { verdict: "pass", reviewerId: alice.id }, others: [] },
      });
      await ok(verdict(alice, "r2", { verdict: "pass" }));
      await ok(verdict(alice, "r3", fail("alice: no price")));
      await ok(verdict(alice, "r4", { verdict: "pass" }));

      // blind review: bob does not see alice's verdict over REST or tRPC, nor in the history or the queue
      const blind = await ok(api(server, "GET", `/api/eval/runs/${run.id}/items/${id.r1}`, as(bob)));
      expect(blind).toMatchObject({ verdict: null, reviews: { given: 1, mine: null, others: null }, history: [] });
      expect(blind.suggestion).not.toBeNull();
      const blindTrpc = await trpcAs(server, bob).eval.items.get.query({ id: run.id, itemId: id.r1! });
      expect(blindTrpc.reviews).toMatchObject({ given: 1, mine: null, others: null });
      expect(blindTrpc.history).toEqual([]);
      const blindList = await trpcAs(server, bob).eval.items.list.query({ id: run.id });
      expect(blindList.items.every((i) => i.reviews?.others === null && i.verdict === null)).toBe(true);
      const queue = await ok(api(server, "GET", `/api/eval/runs/${run.id}/queue`, as(bob)));
      expect(queue.items.map((r: { reviews: unknown }) => r.reviews)).toEqual(
        keys.map(() => ({ needed: 2, given: 1, mine: null })),
      );
      // alice sees her own review and her own history
      const hers = await ok(api(server, "GET", `/api/eval/runs/${run.id}/items/${id.r1}`, as(alice)));
      expect(hers.reviews).toMatchObject({ mine: { verdict: "pass" }, others: [] });
      expect(hers.history).toHaveLength(1);

      // bob reviews: r1 agreed pass, r2 disputed, r3 agreed fail, r4 agreed pass (through tRPC)
      const agreed = await ok(verdict(bob, "r1", { verdict: "pass", basis: "bob: fine" }));
      expect(agreed).toMatchObject({
        status: "answered",
        verdict: { verdict: "pass", source: "human", basis: "bob: fine", byId: bob.id },
        reviews: {
          given: 2,
          state: "agreed",
          others: [{ reviewerId: alice.id, verdict: "pass", basis: "alice: fine" }],
        },
      });
      const disputed = await ok(verdict(bob, "r2", fail("bob: the price is missing")));
      expect(disputed).toMatchObject({ status: "disputed", verdict: null, reviews: { state: "disputed" } });
      await ok(verdict(bob, "r3", fail("bob: no price either")));
      await trpcAs(server, bob).eval.items.verdict.mutate({ id: run.id, itemId: id.r4!, body: { verdict: "pass" } });

      // a person reviews an item once: a third person is refused; a second verdict from bob replaces his own
      const third = await api(server, "PUT", `/api/eval/runs/${run.id}/items/${id.r1}/verdict`, {
        body: { verdict: "fail", basis: "admin", attribution: "generation" },
      });
      expect(third.status).toBe(409);
      expect(third.body.error.code).toBe("ITEM_REVIEWS_COMPLETE");
      const again = await ok(verdict(bob, "r1", { verdict: "pass", basis: "bob: fine, checked twice" }));
      expect(again.reviews).toMatchObject({ given: 2, mine: { basis: "bob: fine, checked twice" } });
      const r1 = await ok(api(server, "GET", `/api/eval/runs/${run.id}/items/${id.r1}`));
      expect(r1.history.map((h: { version: number }) => h.version)).toEqual([1, 2, 3]);
      for (let i = 1; i < r1.history.length; i++) expect(r1.history[i].before).toEqual(r1.history[i - 1].after);

      // the queue's disputed filter, and the adjudicator sees both verdicts with their bases
      const disputedRows = await ok(api(server, "GET", `/api/eval/runs/${run.id}/queue?status=disputed`, as(carol)));
      expect(disputedRows.items.map((r: { key: string }) => r.key)).toEqual(["r2"]);
      const toDecide = await ok(api(server, "GET", `/api/eval/runs/${run.id}/items/${id.r2}`, as(carol)));
      expect(
        toDecide.reviews.others.map((r: { byLabel: string; verdict: string; basis: string | null }) => [
          r.verdict,
          r.basis,
        ]),
      ).toEqual([
        ["pass", null],
        ["fail", "bob: the price is missing"],
      ]);

      // the gate: pending on the dispute (and on the agreement so far: kappa 0.5 below 0.6)
      const pending = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/gate`))).result;
      expect(pending).toMatchObject({ status: "pending", disputed: ["r2"], counts: { disputed: 1, unjudged: 0 } });
      expect(pending.reasons.map((r: { code: string }) => r.code)).toEqual([
        "GATE_DISPUTED",
        "GATE_REVIEWER_AGREEMENT",
      ]);
      expect(pending.missing).toContain("1 disputed question to adjudicate");

      // adjudication: annotators may not; a basis is needed; agreed items are not disputed
      const adjudicate = (body: Record<string, unknown>, opts: object = {}, key = "r2") =>
        api(server, "PUT", `/api/eval/runs/${run.id}/items/${id[key]}/adjudication`, { ...opts, body });
      expect((await adjudicate({ verdict: "pass", basis: "x" }, as(alice))).status).toBe(403);
      const noBasis = await adjudicate({ verdict: "pass", basis: " " }, as(carol));
      expect([noBasis.status, noBasis.body.error.code]).toEqual([400, "VERDICT_BASIS_REQUIRED"]);
      const notDisputed = await adjudicate({ verdict: "pass", basis: "agreed already" }, as(carol), "r1");
      expect([notDisputed.status, notDisputed.body.error.code]).toEqual([409, "ITEM_NOT_DISPUTED"]);
      // two adjudicators at once: one wins, the other gets 409 with the winner's verdict
      const [a, b] = await Promise.all([
        adjudicate({ verdict: "pass", basis: "carol: the price is in the answer" }, as(carol)),
        adjudicate({ verdict: "fail", basis: "admin: no price", attribution: "generation" }),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses).toEqual([200, 409]);
      const [won, lost] = a.status === 200 ? [a, b] : [b, a];
      expect(lost.body.error.code).toBe("ADJUDICATION_CONFLICT");
      expect(lost.body.error.details[0].verdict).toMatchObject({ verdict: won.body.verdict.verdict });
      expect(won.body).toMatchObject({ status: "answered", reviews: { state: "adjudicated" } });
      // the adjudicator's verdict is final
      const after = await verdict(alice, "r2", fail("alice changes her mind"));
      expect([after.status, after.body.error.code]).toEqual([409, "ITEM_ADJUDICATED"]);

      // the report: agreement between the two reviewers (Cohen's kappa 0.5 on r1-r4: see kappa.test.ts, statsmodels)
      const report = await ok(api(server, "GET", `/api/eval/runs/${run.id}/report`));
      expect(report.reviewerAgreement).toMatchObject({
        reviewers: 2,
        n: 4,
        percent: 75,
        kappa: 0.5,
        method: "cohen",
        disputed: 0,
        adjudicated: 1,
      });
      expect(report.reviewerAgreement.byClassification).toEqual([
        { classification: "breakfast", n: 2, percent: 50, kappa: 0, method: "cohen", disputed: 0, adjudicated: 1 },
        { classification: "price", n: 2, percent: 100, kappa: 1, method: "cohen", disputed: 0, adjudicated: 0 },
      ]);
      // everything decided: 3 passes of threshold 2, but the agreement is below the set's 0.6
      expect(report.gate.status).toBe("fail");
      expect(report.gate.reasons.map((r: { code: string }) => r.code)).toEqual(["GATE_REVIEWER_AGREEMENT"]);
      expect((await ok(api(server, "GET", `/api/eval/runs/${run.id}`))).status).toBe("completed");
    }, 120_000);

    it("an API token reviews as the user who owns it; a new run takes the set's reviews per item", async () => {
      const created = await ok(
        api(server, "POST", "/api/builder/agents", {
          body: { name: `token reviewer ${server.name}`, workflow: minimalWorkflow() },
        }),
        201,
      );
      const set = await ok(
        api(server, "POST", "/api/eval/sets", {
          body: {
            agentId: created.agent.id,
            name: "Three reviewers",
            kind: "golden",
            gateThreshold: 1,
            reviewsPerItem: 3,
          },
        }),
        201,
      );
      await ok(
        api(server, "POST", `/api/eval/sets/${set.id}/versions/1/import`, {
          body: {
            format: "json",
            content: JSON.stringify([{ key: "t1", question: "Breakfast?", expected_points: ["a breakfast dish"] }]),
          },
        }),
      );
      const v = await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`));
      const run = await ok(
        api(server, "POST", "/api/eval/runs", { body: { setVersionId: v.id, mode: "pasted" } }),
        201,
      );
      expect(run.reviewsPerItem).toBe(3);
      await ok(
        api(server, "POST", `/api/eval/runs/${run.id}/answers`, {
          body: { answers: [{ key: "t1", answer: "Congee." }] },
        }),
      );
      const [item] = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/items`))).items;
      // the admin's own token and a second token the admin made: both are the admin, so one review, replaced
      const annotatorToken = await tokenWithRole(server, "annotator");
      const path = `/api/eval/runs/${run.id}/items/${item.id}/verdict`;
      const one = await ok(api(server, "PUT", path, { body: { verdict: "pass" } }));
      const two = await ok(
        api(server, "PUT", path, {
          token: annotatorToken,
          body: { verdict: "fail", basis: "no", attribution: "generation" },
        }),
      );
      expect(two.reviews).toMatchObject({
        given: 1,
        mine: { reviewerId: one.reviews.mine.reviewerId, verdict: "fail" },
      });
      // tRPC over a token: the same person, and an undo takes back that person's last review
      const undone = await trpc(server, annotatorToken).eval.items.undoVerdict.mutate({
        id: run.id,
        itemId: item.id,
        body: { version: two.verdictVersion },
      });
      expect(undone.reviews).toMatchObject({ given: 1, mine: { verdict: "pass" } });
      // adjudicating an item that is only open: 409
      try {
        await trpc(server).eval.items.adjudicate.mutate({
          id: run.id,
          itemId: item.id,
          body: { verdict: "pass", basis: "x" },
        });
        expect.unreachable("adjudicating an open item");
      } catch (e) {
        expect(trpcErrorOf(e)).toMatchObject({ httpStatus: 409, appCode: "ITEM_NOT_DISPUTED" });
      }
    }, 60_000);
  });
}
