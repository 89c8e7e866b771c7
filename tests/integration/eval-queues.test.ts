import http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { api, frozenSetWithPastedRun, minimalWorkflow, ok, servers, tokenWithRole, trpc } from "./client";
import type { ServerInfo } from "./global-setup";

/**
 * Reserved and assigned queues (issue 23) over real HTTP on both databases: 10 people asking for the next item 100
 * times each at the same moment on PostgreSQL (20 times on the embedded database, whose one connection takes the
 * claims in turn) on a run with two reviewers per item (distinct reservations per person, never more
 * than two people per item, "none left" only when nothing is left for that person), renewal, release and a verdict
 * releasing; 401/403; a manager's seeded split of a run's items; progress per person; an admin's token for another
 * user reviewing as that user (REST and tRPC).
 */

type QueueRow = {
  id: string;
  key: string;
  queue: { assignee: string | null; assignedToOther: boolean; reservedUntil: string | null; reservedByOthers: number };
};
type Next = { item: QueueRow | null; noneLeft: boolean; fromAssigned: boolean };
type Person = { id: string; name: string; token: string };

async function pastedRun(server: ServerInfo, n: number, label: string) {
  const created = await ok(
    api(server, "POST", "/api/builder/agents", {
      body: { name: `queues agent ${label} ${server.name}`, workflow: minimalWorkflow() },
    }),
    201,
  );
  const keys = Array.from({ length: n }, (_, i) => `k${String(i + 1).padStart(3, "0")}`);
  const { pastedRun } = await frozenSetWithPastedRun(
    server,
    { agentId: created.agent.id, name: `Queues ${label}`, kind: "golden", gateThreshold: 2, reviewsPerItem: 2 },
    keys,
    (key) => ({
      question: `Recommend a breakfast dish and its price (${key})`,
      expected_points: ["recommends a breakfast dish", "mentions the price"],
    }),
  );
  const newRun = async () => (await pastedRun(() => "Try the scallion pancake, 12 yuan.")).id as string;
  return { newRun };
}

/**
 * POST /runs/{id}/queue/next for the race: every call at once, over at most 200 connections, as a balancer in front
 * pools them. A burst of 1,000 new connections overflows the server's listen backlog (Node's 511) on a loaded
 * machine, and the kernel resets the latecomers (ECONNRESET in a fresh-clone run beside the browser tests).
 */
const raceAgent = new http.Agent({ keepAlive: true, maxSockets: 200 });
function postNext(server: ServerInfo, runId: string, token: string): Promise<Next> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.url}/api/eval/runs/${runId}/queue/next`,
      {
        method: "POST",
        agent: raceAgent,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () =>
          res.statusCode === 200 ? resolve(JSON.parse(text) as Next) : reject(new Error(`${res.statusCode}: ${text}`)),
        );
      },
    );
    req.on("error", reject);
    req.end("{}");
  });
}
afterAll(() => raceAgent.destroy());

for (const server of servers()) {
  describe(`reserved and assigned queues on ${server.name}`, () => {
    // the race: 10 x 100 on PostgreSQL; a place for each call (two per item)
    const calls = server.name === "postgresql" ? 100 : 20;
    it(`10 people x ${calls} next-item calls at once: distinct per person, at most 2 people per item; renew, release, a verdict releases; an admin's token reviews as its owner`, async () => {
      const { newRun } = await pastedRun(server, (10 * calls) / 2, "race");
      const runId = await newRun();
      const stamp = Date.now();
      // ten annotators, each with a token an admin made for them over REST (201, shown once, the owner's role)
      const people: Person[] = [];
      for (let i = 0; i < 10; i++) {
        const email = `queue-${i}-${server.name}-${stamp}@example.com`;
        const user = await trpc(server).admin.users.create.mutate({
          email,
          name: `Reviewer ${i}`,
          password: `queue-password-${i}`,
          role: "annotator",
        });
        const token = await ok(
          api(server, "POST", "/api/admin/tokens", { body: { userId: user.id, name: `reviewer ${i}` } }),
          201,
        );
        expect(token).toMatchObject({ ownerId: user.id, role: "annotator" });
        expect(token.token).toEqual(expect.any(String));
        people.push({ id: user.id, name: `Reviewer ${i}`, token: token.token });
      }

      const started = Date.now();
      const answers = await Promise.all(
        people.flatMap((p) =>
          Array.from({ length: calls }, () => postNext(server, runId, p.token).then((r) => ({ p: p.id, r }))),
        ),
      );
      const elapsed = Date.now() - started;
      const got = answers.filter((a) => a.r.item);
      console.log(
        `[eval-queues] ${server.name}: ${answers.length} concurrent next-item calls in ${elapsed} ms, ${got.length} reservations, ${answers.length - got.length} none left`,
      );
      expect(answers.every((a) => (a.r.item === null) === a.r.noneLeft)).toBe(true);
      const byItem = new Map<string, string[]>();
      for (const p of people) {
        const mine = got.filter((a) => a.p === p.id).map((a) => a.r.item!.id);
        expect(new Set(mine).size, `${p.name} got an item twice`).toBe(mine.length);
      }
      for (const a of got) byItem.set(a.r.item!.id, [...(byItem.get(a.r.item!.id) ?? []), a.p]);
      expect(Math.max(...[...byItem.values()].map((v) => v.length))).toBeLessThanOrEqual(2);
      // "none left" is true when said: every item is reserved by two people or already by the one told so
      for (const p of new Set(answers.filter((a) => a.r.noneLeft).map((a) => a.p)))
        for (const holders of byItem.values()) expect(holders.length === 2 || holders.includes(p)).toBe(true);
      // a place for each call: nearly all are taken (the last callers may only find items they already hold)
      expect(got.length).toBeGreaterThanOrEqual(answers.length * 0.9);

      // the server's count of reservations per person is what the callers got
      const progress = await ok(api(server, "GET", `/api/eval/runs/${runId}/progress`));
      for (const p of people)
        expect(progress.people.find((x: { userId: string }) => x.userId === p.id)).toMatchObject({
          name: p.name,
          reserved: got.filter((a) => a.p === p.id).length,
          reviewed: 0,
          assigned: 0,
        });

      // renewal, release, and a verdict by an admin-made token: the owner's review, which releases their reservation
      const [p0] = people;
      const item = got.find((a) => a.p === p0!.id)!.r.item!;
      const renewed = await ok(
        api(server, "PUT", `/api/eval/runs/${runId}/items/${item.id}/reservation`, { token: p0!.token }),
      );
      expect(renewed).toMatchObject({ itemId: item.id, reserved: true });
      expect(new Date(renewed.until).getTime()).toBeGreaterThanOrEqual(new Date(item.queue.reservedUntil!).getTime());
      const judged = await ok(
        api(server, "PUT", `/api/eval/runs/${runId}/items/${item.id}/verdict`, {
          token: p0!.token,
          body: { verdict: "pass" },
        }),
      );
      expect(judged.reviews).toMatchObject({ given: 1, mine: { reviewerId: p0!.id, verdict: "pass" } });
      const after = await ok(api(server, "GET", `/api/eval/runs/${runId}/progress`));
      expect(after.people.find((x: { userId: string }) => x.userId === p0!.id)).toMatchObject({
        reviewed: 1,
        reserved: got.filter((a) => a.p === p0!.id).length - 1,
      });
      const other = got.filter((a) => a.p === p0!.id)[1]!.r.item!;
      const released = await ok(
        api(server, "DELETE", `/api/eval/runs/${runId}/items/${other.id}/reservation`, { token: p0!.token }),
      );
      expect(released).toMatchObject({ itemId: other.id, reserved: false, until: null });

      // over tRPC too: the same next item call, as the token's owner
      const viaTrpc = await trpc(server, people[1]!.token).eval.items.next.mutate({ id: runId, body: {} });
      expect(viaTrpc.noneLeft || viaTrpc.item?.queue.reservedUntil).toBeTruthy();
    });

    it("401 without credentials, 403 for a viewer's next item, an annotator's assignment or token; an admin's tRPC token for another user", async () => {
      const { newRun } = await pastedRun(server, 3, "auth");
      const runId = await newRun();
      const viewer = await tokenWithRole(server, "viewer");
      const annotator = await tokenWithRole(server, "annotator");
      expect((await api(server, "POST", `/api/eval/runs/${runId}/queue/next`, { token: null, body: {} })).status).toBe(
        401,
      );
      expect(
        (await api(server, "PUT", `/api/eval/runs/${runId}/assignees`, { token: null, body: { userIds: [] } })).status,
      ).toBe(401);
      expect((await api(server, "POST", "/api/admin/tokens", { token: null, body: { name: "x" } })).status).toBe(401);
      const denied = await api(server, "POST", `/api/eval/runs/${runId}/queue/next`, { token: viewer, body: {} });
      expect(denied.status).toBe(403);
      expect(
        (await api(server, "PUT", `/api/eval/runs/${runId}/assignees`, { token: annotator, body: { userIds: [] } }))
          .status,
      ).toBe(403);
      expect((await api(server, "POST", "/api/admin/tokens", { token: annotator, body: { name: "x" } })).status).toBe(
        403,
      );
      // a token's role may not exceed its owner's; an unknown owner is 404
      const ann = await trpc(server).admin.users.create.mutate({
        email: `queue-ann-${server.name}-${Date.now()}@example.com`,
        password: "queue-password-ann",
        role: "annotator",
      });
      const tooHigh = await api(server, "POST", "/api/admin/tokens", {
        body: { userId: ann.id, name: "too high", role: "admin" },
      });
      expect(tooHigh.status).toBe(400);
      expect(tooHigh.body.error.code).toBe("REQUEST_INVALID");
      expect(
        (await api(server, "POST", "/api/admin/tokens", { body: { userId: "no-such-user", name: "x" } })).status,
      ).toBe(404);
      const viaTrpc = await trpc(server).admin.tokens.create.mutate({ userId: ann.id, name: "ann over tRPC" });
      expect(viaTrpc).toMatchObject({ ownerId: ann.id, role: "annotator" });
      const next = await ok<Next>(
        api(server, "POST", `/api/eval/runs/${runId}/queue/next`, { token: viaTrpc.token, body: {} }),
      );
      const judged = await ok(
        api(server, "PUT", `/api/eval/runs/${runId}/items/${next.item!.id}/verdict`, {
          token: viaTrpc.token,
          body: { verdict: "pass" },
        }),
      );
      expect(judged.reviews.mine.reviewerId).toBe(ann.id);
    });

    it("assignment: an even seeded split, stored and reproducible; each person's next item is their own first; others' reachable and marked; progress per person", async () => {
      const { newRun } = await pastedRun(server, 10, "assign");
      const runId = await newRun();
      const stamp = Date.now();
      const people: Person[] = [];
      for (let i = 0; i < 4; i++) {
        const user = await trpc(server).admin.users.create.mutate({
          email: `assign-${i}-${server.name}-${stamp}@example.com`,
          name: `Assignee ${i}`,
          password: `assign-password-${i}`,
          role: "annotator",
        });
        const token = await trpc(server).admin.tokens.create.mutate({ userId: user.id, name: `assignee ${i}` });
        people.push({ id: user.id, name: `Assignee ${i}`, token: token.token });
      }
      const three = people.slice(0, 3).map((p) => p.id);
      const split = await ok(
        api(server, "PUT", `/api/eval/runs/${runId}/assignees`, { body: { userIds: three, seed: 11 } }),
      );
      expect(split).toMatchObject({ runId, userIds: three, seed: 11 });
      expect(split.assigned.map((a: { items: number }) => a.items).sort()).toEqual([3, 3, 4]);
      const rows = async () =>
        (await ok(api(server, "GET", `/api/eval/runs/${runId}/queue`))).items.map((r: QueueRow) => r.queue.assignee);
      const first = await rows();
      await ok(api(server, "PUT", `/api/eval/runs/${runId}/assignees`, { body: { userIds: three, seed: 11 } }));
      expect(await rows()).toEqual(first);
      const unknown = await api(server, "PUT", `/api/eval/runs/${runId}/assignees`, {
        body: { userIds: ["nobody-here"] },
      });
      expect(unknown.status).toBe(400);

      const own = await ok<Next>(
        api(server, "POST", `/api/eval/runs/${runId}/queue/next`, { token: people[0]!.token, body: {} }),
      );
      expect(own.fromAssigned).toBe(true);
      expect(own.item!.queue).toMatchObject({ assignee: people[0]!.id, assignedToOther: false });
      const notTheirs = await ok<Next>(
        api(server, "POST", `/api/eval/runs/${runId}/queue/next`, { token: people[3]!.token, body: {} }),
      );
      expect(notTheirs.fromAssigned).toBe(false);
      expect(notTheirs.item!.queue.assignedToOther).toBe(true);
      // the item answer marks it too, for the person who is not its assignee
      const detail = await ok(
        api(server, "GET", `/api/eval/runs/${runId}/items/${notTheirs.item!.id}`, { token: people[3]!.token }),
      );
      // (it may be the item person 0 holds too: two reviewers per item)
      expect(detail.queue).toMatchObject({
        assignedToOther: true,
        reservedByOthers: own.item!.id === notTheirs.item!.id ? 1 : 0,
      });
      expect(detail.queue.reservedUntil).not.toBeNull();

      const progress = await ok(api(server, "GET", `/api/eval/runs/${runId}/progress`));
      const of = (p: Person) => progress.people.find((x: { userId: string }) => x.userId === p.id);
      const mine = split.assigned.find((a: { userId: string }) => a.userId === people[0]!.id).items;
      expect(of(people[0]!)).toMatchObject({
        name: "Assignee 0",
        assigned: mine,
        left: mine,
        reserved: 1,
        reviewed: 0,
      });
      expect(of(people[3]!)).toMatchObject({ assigned: 0, left: 0, reserved: 1 });
      // a verdict on one's own item: reviewed 1, still left (the item needs a second review, not theirs)
      await ok(
        api(server, "PUT", `/api/eval/runs/${runId}/items/${own.item!.id}/verdict`, {
          token: people[0]!.token,
          body: { verdict: "pass" },
        }),
      );
      const later = await ok(api(server, "GET", `/api/eval/runs/${runId}/progress`));
      expect(later.people.find((x: { userId: string }) => x.userId === people[0]!.id)).toMatchObject({
        reviewed: 1,
        reserved: 0,
        left: mine - 1,
        itemsPerHour: null,
      });
    });
  });
}
