import { createHmac } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, minimalWorkflow, ok, servers, tokenWithRole, trpc, trpcErrorOf } from "./client";

/**
 * Signed webhooks (issue 25) on both databases, against a local receiver this file starts on 127.0.0.1 (its port is
 * listed exactly in the servers' HTTP_ALLOWED_ORIGINS by global-setup.ts, which also shortens the schedule: retries
 * after 0.5 s, an endpoint failing for 4 s is disabled). The receiver checks every signature itself (the HMAC is
 * computed here, per the Standard Webhooks convention), answers 500 where a test asks, and records arrival order.
 */

type Received = { path: string; id: string; timestamp: string; signature: string; body: string; at: number };

const received: Received[] = [];
/** path -> statuses to answer in turn (the last one repeats); 200 by default */
const plans = new Map<string, number[]>();
let receiver: http.Server;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({
        path,
        id: String(req.headers["webhook-id"]),
        timestamp: String(req.headers["webhook-timestamp"]),
        signature: String(req.headers["webhook-signature"]),
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      });
      const plan = plans.get(path);
      const status = plan && plan.length > 1 ? (plan.shift() as number) : (plan?.[0] ?? 200);
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status === 200 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(inject("webhookReceiverPort"), "127.0.0.1", resolve));
});
afterAll(async () => {
  await new Promise((r) => receiver.close(r));
});

/** The signature as the Standard Webhooks convention defines it, computed independently of the server's code. */
function expectedSignature(secret: string, r: Received): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return `v1,${createHmac("sha256", key).update(`${r.id}.${r.timestamp}.${r.body}`).digest("base64")}`;
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const at = (path: string) => received.filter((r) => r.path === path);

for (const server of servers()) {
  describe(`signed webhooks on ${server.name}`, () => {
    const base = `http://127.0.0.1:${inject("webhookReceiverPort")}/${server.name}`;
    const made: string[] = [];
    afterAll(async () => {
      for (const id of made) await api(server, "DELETE", `/api/admin/webhooks/${id}`);
    });

    async function endpoint(path: string, events: string[] = ["webhook.test"]) {
      const created = await ok(
        api(server, "POST", "/api/admin/webhooks", { body: { url: `${base}${path}`, events, enabled: true } }),
        201,
      );
      made.push(created.id);
      return created as { id: string; secret: string; url: string };
    }

    it("refuses URLs the SSRF policy refuses with 400 naming the rule; admins only", async () => {
      const cases: Array<[string, string]> = [
        ["http://169.254.169.254/latest/meta-data", "forbidden_address"],
        ["http://[fe80::1]/hook", "forbidden_address"],
        ["http://169.254.10.20:8080/hook", "forbidden_address"],
        ["http://metadata.google.internal/hook", "metadata_host"],
        ["http://10.1.2.3:9000/hook", "origin_not_allowed"],
      ];
      for (const [url, rule] of cases) {
        const r = await api(server, "POST", "/api/admin/webhooks", { body: { url, events: ["run.completed"] } });
        expect(r.status, url).toBe(400);
        expect(r.body.error.code, url).toBe("WEBHOOK_URL_FORBIDDEN");
        expect(r.body.error.details, url).toEqual([{ rule }]);
      }
      const bad = await api(server, "POST", "/api/admin/webhooks", {
        body: { url: `${base}/x`, events: ["no.such.event"] },
      });
      expect(bad.status).toBe(400);
      const unparsable = await api(server, "POST", "/api/admin/webhooks", {
        body: { url: "http://exa%mple.com:99999/x", events: ["run.completed"] },
      });
      expect(unparsable.status).toBe(400);
      expect(unparsable.body.error.code).toBe("WEBHOOK_URL_INVALID");
      const viewer = await tokenWithRole(server, "viewer");
      const denied = await api(server, "GET", "/api/admin/webhooks", { token: viewer });
      expect(denied.status).toBe(403);
      expect(
        await trpc(server, viewer)
          .admin.webhooks.list.query()
          .catch((e: unknown) => trpcErrorOf(e)),
      ).toMatchObject({ httpStatus: 403 });
    });

    it("answers the secret once; a test delivery is signed (checked here), logged, resent with the same id", async () => {
      const e = await endpoint("/main");
      expect(e.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(e.secret.slice(6), "base64")).toHaveLength(32);
      const list = await api(server, "GET", "/api/admin/webhooks");
      expect(list.status).toBe(200);
      expect(list.text).not.toContain(e.secret.slice(6));
      const one = await api(server, "GET", `/api/admin/webhooks/${e.id}`);
      expect(one.body).toMatchObject({ id: e.id, enabled: true, events: ["webhook.test"], disabledReason: null });
      expect(one.text).not.toContain(e.secret.slice(6));
      const viaTrpc = await trpc(server).admin.webhooks.get.query({ id: e.id });
      expect(JSON.stringify(viaTrpc)).not.toContain(e.secret.slice(6));

      const queued = await ok(api(server, "POST", `/api/admin/webhooks/${e.id}/test`), 202);
      expect(queued).toMatchObject({ event: "webhook.test", status: "pending", attempts: 0 });
      const got = await until("the test delivery", () => at(`/${server.name}/main`)[0]);
      expect(got.id).toBe(queued.id);
      expect(got.signature).toBe(expectedSignature(e.secret, got));
      expect(Math.abs(Number(got.timestamp) - Date.now() / 1000)).toBeLessThan(30);
      const body = JSON.parse(got.body);
      expect(body).toMatchObject({ type: "webhook.test", data: { endpointId: e.id } });
      expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);

      const log = await until("the delivery logged as delivered", async () => {
        const l = await ok(api(server, "GET", `/api/admin/webhooks/${e.id}/deliveries`));
        return l.items[0]?.status === "delivered" ? l : undefined;
      });
      expect(log.items[0]).toMatchObject({ id: queued.id, attempts: 1, responseCode: 200, lastError: null });
      expect(log.items[0].deliveredAt).toBeTruthy();

      // resend (tRPC face): the same webhook-id and body, a new valid signature
      const again = await trpc(server).admin.webhooks.resend.mutate({ id: e.id, deliveryId: queued.id });
      expect(again).toMatchObject({ id: queued.id, status: "pending" });
      const second = await until("the resent delivery", () => at(`/${server.name}/main`)[1]);
      expect(second.id).toBe(queued.id);
      expect(second.body).toBe(got.body);
      expect(second.signature).toBe(expectedSignature(e.secret, second));
      const d2 = await until("the resend logged", async () => {
        const l = await ok(api(server, "GET", `/api/admin/webhooks/${e.id}/deliveries`));
        return l.items[0]?.status === "delivered" && l.items[0].attempts === 2 ? l.items[0] : undefined;
      });
      expect(d2.responseCode).toBe(200);

      const metrics = await fetch(`${server.url}/api/metrics`, {
        headers: { authorization: `Bearer ${server.adminToken}` },
      }).then((r) => r.text());
      expect(metrics).toMatch(/flowbench_webhook_deliveries_total\{event="webhook.test",outcome="delivered"\} [1-9]/);
    });

    it("retries after a 500 with the same webhook-id, within a minute, every attempt signed", async () => {
      const e = await endpoint("/flaky");
      plans.set(`/${server.name}/flaky`, [500, 200]);
      const queued = await ok(api(server, "POST", `/api/admin/webhooks/${e.id}/test`), 202);
      const [first, second] = await until("two attempts", () => {
        const got = at(`/${server.name}/flaky`);
        return got.length >= 2 ? got : undefined;
      });
      expect(first!.id).toBe(queued.id);
      expect(second!.id).toBe(queued.id);
      expect(second!.body).toBe(first!.body);
      for (const r of [first!, second!]) expect(r.signature).toBe(expectedSignature(e.secret, r));
      expect(second!.at - first!.at).toBeLessThan(60_000);
      const d = await until("the retry logged", async () => {
        const l = await ok(api(server, "GET", `/api/admin/webhooks/${e.id}/deliveries`));
        return l.items[0]?.status === "delivered" ? l.items[0] : undefined;
      });
      expect(d).toMatchObject({ attempts: 2, responseCode: 200 });
      expect((await ok(api(server, "GET", `/api/admin/webhooks/${e.id}`))).failingSince).toBeNull();
    });

    it("delivers an endpoint's messages in the order they were made", async () => {
      const e = await endpoint("/order");
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await ok(api(server, "POST", `/api/admin/webhooks/${e.id}/test`), 202)).id);
      const got = await until("five deliveries", () => {
        const r = at(`/${server.name}/order`);
        return r.length >= 5 ? r : undefined;
      }).catch(async (err) => {
        const log = await api(server, "GET", `/api/admin/webhooks/${e.id}/deliveries`);
        throw new Error(
          `${err.message}: received ${JSON.stringify(at(`/${server.name}/order`).map((r) => r.id))}, log ${log.text}`,
        );
      });
      expect(got.map((r) => r.id)).toEqual(ids);
    });

    it("disables an endpoint failing for the configured day (4 s here), with the reason; 409 until enabled again", async () => {
      const e = await endpoint("/down");
      plans.set(`/${server.name}/down`, [500]);
      const queued = await ok(api(server, "POST", `/api/admin/webhooks/${e.id}/test`), 202);
      const disabled = await until(
        "the endpoint disabled",
        async () => {
          const one = await ok(api(server, "GET", `/api/admin/webhooks/${e.id}`));
          return one.enabled === false ? one : undefined;
        },
        30_000,
      );
      expect(disabled.disabledReason).toMatch(
        /every delivery failed for .* the last attempt: the endpoint answered 500/,
      );
      expect(disabled.disabledAt).toBeTruthy();
      const attempts = at(`/${server.name}/down`);
      expect(attempts.length).toBeGreaterThanOrEqual(3);
      expect(new Set(attempts.map((r) => r.id))).toEqual(new Set([queued.id]));
      const log = await ok(api(server, "GET", `/api/admin/webhooks/${e.id}/deliveries`));
      expect(log.items[0]).toMatchObject({ id: queued.id, status: "failed", responseCode: 500 });
      expect(log.items[0].attempts).toBe(attempts.length);
      const refused = await api(server, "POST", `/api/admin/webhooks/${e.id}/test`);
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe("WEBHOOK_DISABLED");
      const list = await trpc(server).admin.webhooks.list.query();
      expect(list.find((w) => w.id === e.id)?.disabledReason).toBe(disabled.disabledReason);
      const enabled = await ok(api(server, "PATCH", `/api/admin/webhooks/${e.id}`, { body: { enabled: true } }));
      expect(enabled).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
      const removed = await api(server, "DELETE", `/api/admin/webhooks/${e.id}`);
      expect(removed.status).toBe(204);
      expect((await api(server, "GET", `/api/admin/webhooks/${e.id}`)).status).toBe(404);
    });

    it("emits run.answered, gate.decided (with the gate summary), run.completed and bad_case.changed where they happen", async () => {
      const e = await endpoint("/events", ["run.answered", "run.completed", "gate.decided", "bad_case.changed"]);
      const agent = await ok(
        api(server, "POST", "/api/builder/agents", {
          body: { name: `webhook agent ${server.name}`, workflow: minimalWorkflow() },
        }),
        201,
      );
      const set = await ok(
        api(server, "POST", "/api/eval/sets", {
          body: { agentId: agent.agent.id, name: "Webhooks", kind: "golden", gateThreshold: 2 },
        }),
        201,
      );
      const samples = ["w1", "w2", "w3"].map((key) => ({
        key,
        question: `Recommend a dish (${key})`,
        expected_points: ["recommends a dish"],
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
      await ok(
        api(server, "POST", `/api/eval/runs/${run.id}/answers`, {
          body: { answers: ["w1", "w2", "w3"].map((key) => ({ key, answer: `I recommend the noodles (${key})` })) },
        }),
      );
      const items = (await ok(api(server, "GET", `/api/eval/runs/${run.id}/queue`))).items as Array<{
        id: string;
        key: string;
      }>;
      for (const item of items) {
        const fail = item.key === "w3";
        await ok(
          api(server, "PUT", `/api/eval/runs/${run.id}/items/${item.id}/verdict`, {
            body: fail
              ? { verdict: "fail", basis: "no price", attribution: "generation", expectedVersion: 0 }
              : { verdict: "pass", basis: "fine", expectedVersion: 0 },
          }),
        );
      }
      const w3 = items.find((i) => i.key === "w3")!;
      const bad = await ok(api(server, "POST", `/api/eval/runs/${run.id}/items/${w3.id}/bad-case`, { body: {} }), 201);
      await ok(api(server, "PATCH", `/api/eval/bad-cases/${bad.badCase.id}`, { body: { status: "fixing" } }));

      const ofRun = () =>
        at(`/${server.name}/events`)
          .map((r) => ({ r, body: JSON.parse(r.body) }))
          .filter((x) => x.body.data.runId === run.id);
      const events = await until("five events of the run", () => {
        const got = ofRun();
        return got.length >= 5 ? got : undefined;
      });
      for (const { r } of events) expect(r.signature).toBe(expectedSignature(e.secret, r));
      const types = events.map((x) => x.body.type);
      expect(types.filter((t) => t === "run.answered")).toHaveLength(1);
      expect(types.filter((t) => t === "run.completed")).toHaveLength(1);
      expect(types.filter((t) => t === "gate.decided")).toHaveLength(1);
      expect(types.filter((t) => t === "bad_case.changed")).toHaveLength(2);
      const answered = events.find((x) => x.body.type === "run.answered")!.body.data;
      expect(answered).toMatchObject({ runId: run.id, shortId: run.shortId, status: "awaiting_review", setId: set.id });
      const gate = events.find((x) => x.body.type === "gate.decided")!.body.data;
      expect(gate).toMatchObject({ runId: run.id, status: "pass", passed: true, counts: { pass: 2, fail: 1 } });
      expect(gate.summary).toEqual(expect.any(String));
      expect(events.find((x) => x.body.type === "run.completed")!.body.data.status).toBe("completed");
      const changes = events.filter((x) => x.body.type === "bad_case.changed").map((x) => x.body.data);
      expect(changes.map((c) => [c.change, c.status, c.fromStatus])).toEqual(
        expect.arrayContaining([
          ["created", "open", null],
          ["updated", "fixing", "open"],
        ]),
      );
    });
  });
}
