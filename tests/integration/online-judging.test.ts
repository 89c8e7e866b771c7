import { createHmac } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sampled } from "../../server/eval/online/sampler";
import { api, minimalWorkflow, ok, servers, tokenWithRole, trpc } from "./client";
import type { ServerInfo } from "./global-setup";

/**
 * Sampled online judging, judged leads, lead.created and alerts (issue 25) over real HTTP on both databases. The judge
 * is a judge agent in the Python sandbox (the servers answer with the offline model, so a judge that needs no model):
 * a question with "bad" is judged fail, one with "unclear" unknown, anything else pass, each with a rationale. A local
 * receiver (the port webhooks.test.ts uses, listed exactly in HTTP_ALLOWED_ORIGINS) checks every Standard Webhooks
 * signature itself. The LLM judge's reference-free rubric is tested with the real openai client against a local
 * model server in server/eval/online/judging.test.ts.
 */
type Received = { path: string; id: string; timestamp: string; signature: string; body: string };
const received: Received[] = [];
let receiver: http.Server;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        path: req.url ?? "/",
        id: String(req.headers["webhook-id"]),
        timestamp: String(req.headers["webhook-timestamp"]),
        signature: String(req.headers["webhook-signature"]),
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(inject("webhookReceiverPort"), "127.0.0.1", resolve));
});
afterAll(async () => {
  await new Promise((r) => receiver.close(r));
});

/** The signature per the Standard Webhooks convention, computed independently of the server's code. */
function signatureOk(secret: string, r: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return r.signature === `v1,${createHmac("sha256", key).update(`${r.id}.${r.timestamp}.${r.body}`).digest("base64")}`;
}

async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 60_000,
) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const JUDGE_CODE = `q = str(inputs.get("question") or "")
pts = inputs.get("points")
if "bad" in q:
    result = {"verdict": "fail", "rationale": "the answer does not say which dish (" + str(len(pts or [])) + " points)"}
elif "unclear" in q:
    result = {"verdict": "unknown", "rationale": "cannot tell what was asked"}
else:
    result = {"verdict": "pass", "rationale": "fine"}
`;

async function judgeAgent(server: ServerInfo) {
  const recipe = await ok(api(server, "GET", "/api/builder/recipes/judge_python"));
  const workflow = recipe.workflow as { nodes: Array<{ type: string; config: Record<string, unknown> }> };
  const code = workflow.nodes.find((n) => n.type === "code")!;
  code.config = { ...code.config, code: JUDGE_CODE };
  const created = await ok(
    api(server, "POST", "/api/builder/agents", { body: { name: `oj-judge-${Date.now()}`, kind: "judge", workflow } }),
    201,
  );
  return { agentId: created.agent.id as string, version: 1 };
}

async function chatAgent(server: ServerInfo, name: string) {
  const created = await ok(
    api(server, "POST", "/api/builder/agents", { body: { name, workflow: minimalWorkflow() } }),
    201,
  );
  const id = created.agent.id as string;
  await ok(api(server, "POST", `/api/builder/agents/${id}/publish`, { body: { version: 1 } }));
  return id;
}

const chat = async (server: ServerInfo, agentId: string, message: string) =>
  (await ok(api(server, "POST", `/api/agents/${agentId}/chat`, { body: { message } }))).traceId as string;

const leadIds = async (server: ServerInfo, agentId: string, signal: string) =>
  (await ok(api(server, "GET", `/api/eval/online/leads?agentId=${agentId}&signal=${signal}`))).items.map(
    (l: { traceId: string }) => l.traceId,
  ) as string[];

for (const server of servers()) {
  describe(`sampled online judging and alerts on ${server.name}`, () => {
    const path = `/${server.name}/online-judging`;
    const at = () => received.filter((r) => r.path === path);
    const events = (type: string) =>
      at()
        .map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> })
        .filter((e) => e.type === type);
    let endpoint: { id: string; secret: string };
    let judge: { agentId: string; version: number };
    beforeAll(async () => {
      endpoint = await ok(
        api(server, "POST", "/api/admin/webhooks", {
          body: {
            url: `http://127.0.0.1:${inject("webhookReceiverPort")}${path}`,
            events: ["lead.created", "alert.fired"],
            enabled: true,
          },
        }),
        201,
      );
      judge = await judgeAgent(server);
    });
    afterAll(async () => {
      if (endpoint) await api(server, "DELETE", `/api/admin/webhooks/${endpoint.id}`);
    });

    it("bad input: rate 1.5 400, unknown agent 404, the built-in judge 400 JUDGE_NEEDS_POINTS; 401 and 403", async () => {
      const agentId = await chatAgent(server, `oj-refusals-${Date.now()}`);
      const url = `/api/eval/online/judging/${agentId}`;
      const rate = await api(server, "PUT", url, { body: { samplingRate: 1.5, judge: { type: "llm" } } });
      expect(rate.status).toBe(400);
      expect(rate.body.error.code).toBe("REQUEST_INVALID");
      const builtin = await api(server, "PUT", url, { body: { samplingRate: 1, judge: { type: "builtin" } } });
      expect(builtin.status).toBe(400);
      expect(builtin.body.error.code).toBe("JUDGE_NEEDS_POINTS");
      expect(
        (
          await api(server, "PUT", "/api/eval/online/judging/no-such-agent", {
            body: { samplingRate: 1, judge: { type: "llm" } },
          })
        ).status,
      ).toBe(404);
      expect((await api(server, "GET", "/api/eval/online/judging/no-such-agent")).status).toBe(404);
      const share = await api(server, "POST", "/api/eval/online/alert-rules", {
        body: { agentId, name: "x", kind: "share", percent: 10 },
      });
      expect(share.status).toBe(400); // a share rule needs lastN
      expect((await api(server, "GET", url, { token: null })).status).toBe(401);
      const annotator = await tokenWithRole(server, "annotator");
      expect(
        (await api(server, "PUT", url, { body: { samplingRate: 1, judge: { type: "llm" } }, token: annotator })).status,
      ).toBe(403);
      expect((await ok(api(server, "GET", url))).rule).toBeNull();
    });

    it("judged fails and unknowns become leads (filtered by signal) with the rationale; lead.created once per lead; a count rule fires alert.fired once, cools down, and is acknowledged", async () => {
      const agentId = await chatAgent(server, `oj-judged-${Date.now()}`);
      const rule = await ok(
        api(server, "PUT", `/api/eval/online/judging/${agentId}`, {
          body: { samplingRate: 1, filters: { minLength: 8 }, judge: { type: "agent", ...judge }, enabled: true },
        }),
      );
      expect(rule.rule).toMatchObject({ samplingRate: 1, filters: { minLength: 8 }, judge: { type: "agent" } });
      const alertRule = await ok(
        api(server, "POST", "/api/eval/online/alert-rules", {
          body: {
            agentId,
            name: "two judged fails",
            kind: "count",
            minCount: 2,
            windowMinutes: 60,
            signal: "judge_fail",
          },
        }),
        201,
      );
      expect(alertRule).toMatchObject({ kind: "count", minCount: 2, cooldownMinutes: 60, lastFiredAt: null });

      const bad1 = await chat(server, agentId, "a bad question about lunch");
      const unclear = await chat(server, agentId, "an unclear question about dinner");
      const good = await chat(server, agentId, "a good question about breakfast");
      const short = await chat(server, agentId, "bad"); // under minLength: not judged
      const bad2 = await chat(server, agentId, "another bad question about tea");

      // the queue judges the traces in parallel, in any order: wait until all four are judged (the short one never is)
      await until(
        "four judged answers",
        async () => (await ok(api(server, "GET", `/api/eval/online/judging/${agentId}`))).last7Days.judged === 4,
      );
      expect((await leadIds(server, agentId, "judge_fail")).sort()).toEqual([bad1, bad2].sort());
      expect(await leadIds(server, agentId, "judge_unknown")).toEqual([unclear]);
      const page = await ok(api(server, "GET", `/api/eval/online/leads?agentId=${agentId}&signal=judge_fail`));
      expect(page.items[0]).toMatchObject({
        signals: ["judge_fail"],
        judgment: {
          verdict: "fail",
          rationale: "the answer does not say which dish (0 points)",
          judgedBy: { type: "agent" },
        },
      });
      const all = await ok(api(server, "GET", `/api/eval/online/leads?agentId=${agentId}`));
      expect(all.items.map((l: { traceId: string }) => l.traceId)).not.toContain(good);
      expect(all.items.map((l: { traceId: string }) => l.traceId)).not.toContain(short);
      // the same signal through tRPC
      const viaTrpc = await trpc(server).eval.online.leads.query({ agentId, signal: "judge_unknown" });
      expect(viaTrpc.items.map((l: { traceId: string }) => l.traceId)).toEqual([unclear]);
      const judging = await ok(api(server, "GET", `/api/eval/online/judging/${agentId}`));
      expect(judging.last7Days).toEqual({ judged: 4, pass: 1, fail: 2, unknown: 1 });

      // lead.created: one per lead, signed; alert.fired: one, with the figures and the link
      const mine = () => events("lead.created").filter((e) => e.data.agentId === agentId);
      await until("three lead.created", () => mine().length >= 3);
      await until("alert.fired", () => events("alert.fired").some((e) => e.data.agentId === agentId));
      for (const r of at()) expect(signatureOk(endpoint.secret, r)).toBe(true);
      expect(
        mine()
          .map((e) => e.data.traceId)
          .sort(),
      ).toEqual([bad1, bad2, unclear].sort());
      expect(mine().find((e) => e.data.traceId === unclear)?.data).toMatchObject({
        signals: ["judge_unknown"],
        message: "an unclear question about dinner",
        judgment: { verdict: "unknown", rationale: "cannot tell what was asked" },
      });
      const fired = events("alert.fired").filter((e) => e.data.agentId === agentId);
      expect(fired).toHaveLength(1);
      expect(fired[0]!.data).toMatchObject({
        ruleId: alertRule.id,
        ruleName: "two judged fails",
        figures: { kind: "count", signal: "judge_fail", leads: 2, threshold: 2, windowMinutes: 60 },
      });
      expect(String(fired[0]!.data.leadsUrl)).toContain(`/eval?agent=${agentId}&signal=judge_fail#leads`);

      // a third fail inside the cool-down: its lead is announced, the rule does not fire again
      const bad3 = await chat(server, agentId, "one more bad question about soup");
      await until("the fourth lead.created", () => mine().some((e) => e.data.traceId === bad3));
      await new Promise((r) => setTimeout(r, 1500)); // the alert evaluation after that judgment is done by now
      expect(events("alert.fired").filter((e) => e.data.agentId === agentId)).toHaveLength(1);
      expect(mine()).toHaveLength(4); // nothing announced twice
      expect(new Set(at().map((r) => r.id)).size).toBe(at().length);

      // the banner's alerts, acknowledged by an annotator; the cool-down stays
      const open = await ok(api(server, "GET", `/api/eval/online/alerts?agentId=${agentId}&open=true`));
      expect(open.items).toHaveLength(1);
      expect(open.items[0]).toMatchObject({
        ruleName: "two judged fails",
        acknowledgedAt: null,
        figures: { leads: 2 },
      });
      const annotator = await tokenWithRole(server, "annotator");
      const acked = await ok(
        api(server, "POST", `/api/eval/online/alerts/${open.items[0].id}/acknowledge`, { token: annotator }),
      );
      expect(acked.acknowledgedAt).not.toBeNull();
      expect((await ok(api(server, "GET", `/api/eval/online/alerts?agentId=${agentId}&open=true`))).items).toEqual([]);
      expect((await api(server, "POST", "/api/eval/online/alerts/nope/acknowledge")).status).toBe(404);
      const rules = await ok(api(server, "GET", `/api/eval/online/alert-rules?agentId=${agentId}`));
      expect(rules.items[0].lastFiredAt).not.toBeNull();
      expect((await api(server, "DELETE", `/api/eval/online/alert-rules/${alertRule.id}`)).status).toBe(204);
    });

    it("sampling over real chats: at rate 0.5 exactly the answers the trace-id hash picks are judged", async () => {
      const agentId = await chatAgent(server, `oj-sampled-${Date.now()}`);
      await ok(
        api(server, "PUT", `/api/eval/online/judging/${agentId}`, {
          body: { samplingRate: 0.5, judge: { type: "agent", ...judge } },
        }),
      );
      const traces: string[] = [];
      for (let i = 0; i < 12; i++) traces.push(await chat(server, agentId, `bad question number ${i}`));
      const picked = traces.filter((t) => sampled(t, 0.5));
      await until(
        "the sampled answers judged",
        async () =>
          (await ok(api(server, "GET", `/api/eval/online/judging/${agentId}`))).last7Days.judged === picked.length,
      );
      expect((await leadIds(server, agentId, "judge_fail")).sort()).toEqual([...picked].sort());
    });
  });
}
