import { describe, expect, inject, it } from "vitest";
import { api, minimalWorkflow, servers, signIn, tokenWithRole, trpc, trpcErrorOf } from "./client";
import type { ServerInfo } from "./global-setup";

const webhookUrl = inject("webhookUrl");

async function webhookCount(): Promise<number> {
  return ((await (await fetch(`${webhookUrl}/__stats`)).json()) as { count: number }).count;
}

async function createAgent(server: ServerInfo, workflow: unknown, name = `runtime it ${Date.now()}`): Promise<string> {
  const res = await api(server, "POST", "/api/builder/agents", { body: { name, workflow } });
  expect(res.status, res.text).toBe(201);
  return res.body.agent.id as string;
}

/** A start node with one required string output, `query`. */
const QUERY_START = {
  id: "start",
  type: "start",
  config: { outputs: [{ name: "query", type: "string", required: true }] },
  position: { x: 0, y: 0 },
};

/** start(scene, query) -> http_1 GET /api/dishes (relative: WEBHOOK_BASE_URL) -> llm_1 -> end with a payload. */
function dishesWorkflow() {
  return {
    nodes: [
      {
        id: "start",
        type: "start",
        config: {
          outputs: [
            { name: "query", type: "string", required: true, default: "" },
            { name: "scene", type: "string", required: false, default: "dinner" },
          ],
        },
        position: { x: 0, y: 0 },
      },
      {
        id: "http_1",
        type: "http",
        config: { url: "/api/dishes", params: { scene: "{{start.scene}}" } },
        position: { x: 200, y: 0 },
      },
      {
        id: "llm_1",
        type: "llm",
        config: { userPrompt: "{{start.query}} Choose from {{http_1.result.dishes}}" },
        position: { x: 400, y: 0 },
      },
      {
        id: "end",
        type: "end",
        config: { output: "{{llm_1.result}}", payload: { goods_list: "{{http_1.result.dishes}}" } },
        position: { x: 600, y: 0 },
      },
    ],
    edges: [
      { source: "start", target: "http_1" },
      { source: "http_1", target: "llm_1" },
      { source: "llm_1", target: "end" },
    ],
  };
}

for (const server of servers()) {
  describe(`runtime on ${server.name}`, () => {
    it("publish + chat: 409 before publishing, offline answer, cache hit on the repeated question, traces", async () => {
      const id = await createAgent(server, minimalWorkflow());
      const before = await api(server, "POST", `/api/agents/${id}/chat`, { body: { message: "hello" } });
      expect(before.status).toBe(409);
      expect(before.body.error.code).toBe("AGENT_NOT_PUBLISHED");

      expect((await api(server, "POST", `/api/builder/agents/${id}/publish`, { body: { version: 9 } })).status).toBe(
        404,
      );
      const published = await api(server, "POST", `/api/builder/agents/${id}/publish`, { body: { version: 1 } });
      expect(published.status).toBe(200);
      expect(published.body.agent.publishedVersion).toBe(1);

      const first = await api(server, "POST", `/api/agents/${id}/chat`, { body: { message: "What is for  dinner?" } });
      expect(first.status, first.text).toBe(200);
      expect(first.body).toMatchObject({ cache: "miss", payload: null, sessionId: null });
      expect(first.body.answer).toContain("[offline model");
      expect(first.body.answer).toContain("Question: What is for dinner?");

      const again = await api(server, "POST", `/api/agents/${id}/chat`, {
        body: { message: "  what is for DINNER? " },
      });
      expect(again.body).toMatchObject({ cache: "hit", answer: first.body.answer });
      expect(again.body.traceId).not.toBe(first.body.traceId);

      const hit = await api(server, "GET", `/api/traces/${again.body.traceId}`);
      expect(hit.status).toBe(200);
      expect(hit.body).toMatchObject({
        cache: "hit",
        cacheSourceTraceId: first.body.traceId,
        source: "chat",
        mode: "pipeline_live",
        status: "succeeded",
      });
      const original = await api(server, "GET", `/api/traces/${first.body.traceId}`);
      expect(original.body).toMatchObject({ cache: "miss", llmProvider: "offline", agentId: id });
      expect(original.body.steps.map((s: { nodeId: string; status: string }) => `${s.nodeId}:${s.status}`)).toEqual([
        "start:succeeded",
        "llm_1:succeeded",
        "end:succeeded",
      ]);
      expect(original.body.steps[1].usage.promptTokens).toBeGreaterThan(0);

      const list = await api(server, "GET", `/api/traces?agentId=${id}&source=chat&limit=10`);
      expect(list.status).toBe(200);
      expect(list.body.items.map((t: { id: string }) => t.id)).toEqual([again.body.traceId, first.body.traceId]);
      expect(list.body.items[0].steps).toBeUndefined();
    });

    it("feedback: scores online traces, filters by score, refuses bad scores and test-run traces", async () => {
      const id = await createAgent(server, minimalWorkflow());
      await api(server, "POST", `/api/builder/agents/${id}/publish`, { body: { version: 1 } });
      const viewer = await tokenWithRole(server, "viewer");
      const chat = await api(server, "POST", `/api/agents/${id}/chat`, {
        token: viewer,
        body: { message: `low score ${Date.now()}` },
      });
      expect(chat.status).toBe(200);

      const fb = await api(server, "POST", `/api/traces/${chat.body.traceId}/feedback`, {
        token: viewer,
        body: { score: 2, comment: "wrong dish" },
      });
      expect(fb.status).toBe(201);
      expect(fb.body).toMatchObject({ traceId: chat.body.traceId, score: 2, comment: "wrong dish" });
      expect(
        (await api(server, "POST", `/api/traces/${chat.body.traceId}/feedback`, { body: { score: 9 } })).status,
      ).toBe(400);
      expect(
        (await api(server, "POST", `/api/traces/${chat.body.traceId}/feedback`, { body: { comment: "no score" } })).body
          .error.code,
      ).toBe("REQUEST_INVALID");
      expect((await api(server, "POST", `/api/traces/nope/feedback`, { body: { score: 3 } })).status).toBe(404);

      const low = await api(server, "GET", `/api/traces?agentId=${id}&maxScore=2`);
      expect(low.body.items.map((t: { id: string }) => t.id)).toEqual([chat.body.traceId]);
      expect(low.body.items[0].feedbackSummary).toEqual({ count: 1, averageScore: 2, lastScore: 2 });
      expect((await api(server, "GET", `/api/traces?agentId=${id}&minScore=3`)).body.items).toEqual([]);
      expect((await api(server, "GET", `/api/traces?minScore=0`)).status).toBe(400);
      const detail = await api(server, "GET", `/api/traces/${chat.body.traceId}`, { token: viewer });
      expect(detail.body.feedback).toEqual([expect.objectContaining({ score: 2, comment: "wrong dish" })]);

      const run = await api(server, "POST", `/api/agents/${id}/test-run`, { body: { input: { query: "x" } } });
      expect(
        (await api(server, "POST", `/api/traces/${run.body.id}/feedback`, { body: { score: 1 } })).body.error.code,
      ).toBe("TRACE_NOT_ONLINE");
    });

    it("sessions: the second turn gets the first as history and bypasses the cache", async () => {
      const id = await createAgent(server, minimalWorkflow());
      await api(server, "POST", `/api/builder/agents/${id}/publish`, { body: { version: 1 } });
      const sessionId = `s-${Date.now()}`;
      const a = await api(server, "POST", `/api/agents/${id}/chat`, { body: { message: "I like tofu", sessionId } });
      const b = await api(server, "POST", `/api/agents/${id}/chat`, {
        body: { message: "What do I like?", sessionId },
      });
      expect(a.body.sessionId).toBe(sessionId);
      expect(b.body.cache).toBe("bypass");
      expect(b.body.answer).toContain("Context: 2 earlier messages");
      const traces = await api(server, "GET", `/api/traces?agentId=${id}&sessionId=${sessionId}`);
      expect(traces.body.items).toHaveLength(2);
    });

    it("a token is its own chat principal: a viewer token the admin made never reads or writes the admin token's conversation", async () => {
      const id = await createAgent(server, minimalWorkflow());
      await api(server, "POST", `/api/builder/agents/${id}/publish`, { body: { version: 1 } });
      const viewer = await tokenWithRole(server, "viewer"); // made by the admin token, so owned by the admin
      const sessionId = `s-shared-${Date.now()}`;
      const chat = (message: string, token?: string) =>
        api(server, "POST", `/api/agents/${id}/chat`, { body: { message, sessionId }, token });
      expect((await chat("admin secret message")).status).toBe(200);
      const v = await chat("what did the admin say?", viewer);
      expect(v.status, v.text).toBe(200);
      expect(v.body.answer).not.toContain("earlier messages");
      expect(v.body.answer).not.toContain("admin secret message");
      const a = await chat("and now?");
      // the admin's own first turn only: the viewer's turn did not join the admin's conversation
      expect(a.body.answer).toContain("Context: 2 earlier messages");
      expect(a.body.answer).not.toContain("what did the admin say?");
      // a browser session is its person's: the admin's signed-in browser is not the admin's token, and the admin's
      // second browser continues the first one's conversation
      const browser = await signIn(server.url, server.adminEmail, server.adminPassword);
      const inBrowser = (message: string, cookie: string) =>
        api(server, "POST", `/api/agents/${id}/chat`, {
          body: { message, sessionId },
          token: null,
          headers: { cookie },
        });
      const b1 = await inBrowser("typed in the browser", browser);
      expect(b1.status, b1.text).toBe(200);
      expect(b1.body.answer).not.toContain("earlier messages");
      const otherBrowser = await signIn(server.url, server.adminEmail, server.adminPassword);
      const b2 = await inBrowser("and in another browser", otherBrowser);
      expect(b2.body.answer).toContain("Context: 2 earlier messages");
      expect((await chat("the token once more")).body.answer).toContain("Context: 4 earlier messages");
    });

    it("pipeline_live chat calls the owner's API (WEBHOOK_BASE_URL) and returns the structured payload; pipeline test runs make no request", async () => {
      const id = await createAgent(server, dishesWorkflow());
      await api(server, "POST", `/api/builder/agents/${id}/publish`, { body: { version: 1 } });
      const n0 = await webhookCount();
      const chat = await api(server, "POST", `/api/agents/${id}/chat`, {
        body: { message: `Recommend a dish ${Date.now()}` },
      });
      expect(chat.status, chat.text).toBe(200);
      expect(await webhookCount()).toBe(n0 + 1);
      expect(chat.body.payload.goods_list.map((d: { name: string }) => d.name)).toEqual([
        "Mapo tofu",
        "Kung pao chicken",
      ]);
      expect(chat.body.answer).toContain("Items (2): Mapo tofu; Kung pao chicken");

      const n1 = await webhookCount();
      const dry = await api(server, "POST", `/api/agents/${id}/test-run`, {
        body: { message: "Recommend", mode: "pipeline" },
      });
      expect(dry.status).toBe(200);
      expect(dry.body).toMatchObject({
        source: "test_run",
        mode: "pipeline",
        status: "succeeded",
        payload: { goods_list: "" },
      });
      expect(dry.body.steps.find((s: { nodeId: string }) => s.nodeId === "http_1").output.result).toEqual({
        items: [],
        dryRun: true,
      });
      const invoke = await api(server, "POST", `/api/agents/${id}/test-run`, {
        body: { message: "Recommend", mode: "invoke" },
      });
      expect(invoke.body.steps.find((s: { nodeId: string }) => s.nodeId === "http_1").status).toBe("skipped");
      expect(await webhookCount()).toBe(n1);
    });

    it("test-run: drafts are validated (400 with findings), SSRF is refused, code nodes run in the sandbox", async () => {
      const id = await createAgent(server, minimalWorkflow());
      const invalid = minimalWorkflow();
      (invalid.nodes[1] as { config: Record<string, unknown> }).config = {};
      const bad = await api(server, "POST", `/api/agents/${id}/test-run`, { body: { workflow: invalid, input: {} } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ valid: false, error: { code: "WORKFLOW_INVALID" } });

      const ssrf = {
        nodes: [
          { id: "start", type: "start", config: {}, position: { x: 0, y: 0 } },
          {
            id: "http_1",
            type: "http",
            config: { url: "http://169.254.169.254/latest/meta-data/" },
            position: { x: 1, y: 0 },
          },
          { id: "end", type: "end", config: { output: "{{http_1.result}}" }, position: { x: 2, y: 0 } },
        ],
        edges: [
          { source: "start", target: "http_1" },
          { source: "http_1", target: "end" },
        ],
      };
      const refused = await api(server, "POST", `/api/agents/${id}/test-run`, {
        body: { workflow: ssrf, mode: "pipeline_live" },
      });
      expect(refused.status).toBe(200);
      expect(refused.body).toMatchObject({
        status: "failed",
        error: { code: "HTTP_FORBIDDEN_DESTINATION", nodeId: "http_1" },
      });

      const code = {
        nodes: [
          { ...QUERY_START, config: { ...QUERY_START.config } as Record<string, unknown> },
          {
            id: "code_1",
            type: "code",
            config: { code: "result = {'upper': inputs['q'].upper()}", inputs: { q: "{{start.query}}" } },
            position: { x: 1, y: 0 },
          },
          { id: "end", type: "end", config: { output: "{{code_1.result.upper}}" }, position: { x: 2, y: 0 } },
        ],
        edges: [
          { source: "start", target: "code_1" },
          { source: "code_1", target: "end" },
        ],
      };
      const ran = await api(server, "POST", `/api/agents/${id}/test-run`, {
        body: { workflow: code, message: "tofu" },
      });
      expect(ran.status, ran.text).toBe(200);
      expect(ran.body).toMatchObject({ status: "succeeded", answer: "TOFU" });

      code.nodes[1]!.config.code = "result = (";
      const syntax = await api(server, "POST", "/api/builder/validate", { body: { workflow: code } });
      expect(syntax.status).toBe(400);
      expect(syntax.body.errors).toEqual([
        expect.objectContaining({ code: "CODE_SYNTAX_ERROR", path: "/workflow/nodes/1/config/code", nodeId: "code_1" }),
      ]);
    });

    it("text a node produces that PostgreSQL cannot store (a code node returning chr(0)): 200 and a stored trace, through test-run and chat", async () => {
      const workflow = {
        nodes: [
          QUERY_START,
          {
            id: "code_1",
            type: "code",
            config: {
              code: "result = {'text': 'a' + chr(0) + 'b', 'lone': inputs['q'] + chr(0xD800)}",
              inputs: { q: "{{start.query}}" },
            },
            position: { x: 1, y: 0 },
          },
          {
            id: "end",
            type: "end",
            config: { output: "{{code_1.result.text}}", payload: { r: "{{code_1.result}}" } },
            position: { x: 2, y: 0 },
          },
        ],
        edges: [
          { source: "start", target: "code_1" },
          { source: "code_1", target: "end" },
        ],
      };
      const id = await createAgent(server, workflow);
      const ran = await api(server, "POST", `/api/agents/${id}/test-run`, { body: { message: "x" } });
      expect(ran.status, ran.text).toBe(200);
      expect(ran.body).toMatchObject({ status: "succeeded", answer: "a\ufffdb" });
      await api(server, "POST", `/api/builder/agents/${id}/publish`, { body: { version: 1 } });
      const chat = await api(server, "POST", `/api/agents/${id}/chat`, { body: { message: "y" } });
      expect(chat.status, chat.text).toBe(200);
      expect(chat.body).toMatchObject({ answer: "a\ufffdb", payload: { r: { text: "a\ufffdb" } } });
      const trace = await api(server, "GET", `/api/traces/${chat.body.traceId}`);
      expect(trace.body).toMatchObject({ status: "succeeded", answer: "a\ufffdb" });
      expect(JSON.stringify(trace.body.steps)).toContain("y\ufffd");
      // the answer cache stored it too: the same question is a hit with the same text
      const again = await api(server, "POST", `/api/agents/${id}/chat`, { body: { message: "y" } });
      expect(again.body).toMatchObject({ cache: "hit", answer: "a\ufffdb" });
    });

    it("credentials in a chat's input and in values templated onward never reach the stored trace; the caller's answer is untouched", async () => {
      const workflow = {
        nodes: [
          {
            id: "start",
            type: "start",
            config: {
              outputs: [
                { name: "query", type: "string", required: true },
                { name: "password", type: "string" },
              ],
            },
            position: { x: 0, y: 0 },
          },
          {
            id: "http_1",
            type: "http",
            config: { url: "/echo?api_key={{start.password}}", method: "POST", body: { q: "{{start.query}}" } },
            position: { x: 1, y: 0 },
          },
          {
            id: "end",
            type: "end",
            config: { output: "{{start.query}} {{http_1.result.query.api_key}}" },
            position: { x: 2, y: 0 },
          },
        ],
        edges: [
          { source: "start", target: "http_1" },
          { source: "http_1", target: "end" },
        ],
      };
      const id = await createAgent(server, workflow);
      await api(server, "POST", `/api/builder/agents/${id}/publish`, { body: { version: 1 } });
      const chat = await api(server, "POST", `/api/agents/${id}/chat`, {
        body: { input: { query: "hello", password: "pw-hunter2-xyz" } },
      });
      expect(chat.status, chat.text).toBe(200);
      expect(chat.body.answer).toBe("hello pw-hunter2-xyz");
      const trace = await api(server, "GET", `/api/traces/${chat.body.traceId}`, {
        token: await tokenWithRole(server, "viewer"),
      });
      expect(trace.status).toBe(200);
      expect(trace.body.input).toEqual({ query: "hello", password: "[redacted]" });
      expect(JSON.stringify(trace.body.steps)).not.toContain("pw-hunter2-xyz");
      expect(trace.body.steps.find((s: { nodeId: string }) => s.nodeId === "end").output.output).toBe(
        "hello [redacted]",
      );
    });

    it("issue 28: an agent whose http nodes call an echo server stores no secret anywhere a viewer reads (GET /api/traces/{id}): answer, payload, steps, input", async () => {
      const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.aXQtc2lnbmF0dXJl";
      const node = (id: string, config: Record<string, unknown>) => ({
        id,
        type: "http",
        config,
        position: { x: 1, y: 0 },
      });
      const workflow = {
        nodes: [
          QUERY_START,
          // headers by names inside and outside the first list, query values, a JSON body given as a string
          node("http_1", {
            url: "/echo?sig=it-sigq-1&code=it-code-1&signature=it-sgq-1&access_token=it-atq-1&page=2",
            method: "POST",
            headers: {
              Authorization: "Bearer it-bearer-secret-1",
              "x-api-key": "it-xkey-secret-1",
              Authentication: "it-authn-1",
              "X-JWT": "it-jwthdr-1",
              "X-Passkey": "it-passkey-1",
              "X-Pin": "it-pin-1234",
              "X-Sig": "it-sighdr-1",
              "content-type": "application/json",
            },
            body: '{"password":"it-pw-json-1","note":"ok"}',
          }),
          // a form body given as a string
          node("http_2", {
            url: "/echo",
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: "user=ada&password=it-pw-form-1",
          }),
          // tokens in the url path, echoed back as plain text with the request's headers
          node("http_3", {
            url: `/echo-text/reset-password/8f3a9c1b2d77/${jwt}`,
            method: "GET",
            headers: { "X-Api-Key": "it-xkey-text-1" },
          }),
          {
            id: "end",
            type: "end",
            config: {
              // the answer templates the echoed headers and repeats a secret in prose (by value)
              output:
                "{{start.query}}: {{http_1.result.headers}} / {{http_3.result}} / key {{http_1.result.headers.x-api-key}}",
              payload: { echoed: "{{http_1.result}}", form: "{{http_2.result.body}}", keep: "dinner" },
            },
            position: { x: 4, y: 0 },
          },
        ],
        edges: [
          { source: "start", target: "http_1" },
          { source: "http_1", target: "http_2" },
          { source: "http_2", target: "http_3" },
          { source: "http_3", target: "end" },
        ],
      };
      const id = await createAgent(server, workflow);
      await api(server, "POST", `/api/builder/agents/${id}/publish`, { body: { version: 1 } });
      const chat = await api(server, "POST", `/api/agents/${id}/chat`, { body: { message: `echo ${Date.now()}` } });
      expect(chat.status, chat.text).toBe(200);
      // the caller gets the answer and payload whole
      expect(chat.body.answer).toContain("it-bearer-secret-1");
      expect(chat.body.answer).toContain("it-xkey-text-1");
      expect(chat.body.payload.form).toBe("user=ada&password=it-pw-form-1");
      const trace = await api(server, "GET", `/api/traces/${chat.body.traceId}`, {
        token: await tokenWithRole(server, "viewer"),
      });
      expect(trace.status, trace.text).toBe(200);
      expect(trace.body.steps.map((s: { status: string }) => s.status)).toEqual(Array(5).fill("succeeded"));
      const stored = JSON.stringify(trace.body);
      for (const secret of [
        "it-bearer-secret-1",
        "it-xkey-secret-1",
        "it-authn-1",
        "it-jwthdr-1",
        "it-passkey-1",
        "it-pin-1234",
        "it-sighdr-1",
        "it-sigq-1",
        "it-code-1",
        "it-sgq-1",
        "it-atq-1",
        "it-pw-json-1",
        "it-pw-form-1",
        "it-xkey-text-1",
        "8f3a9c1b2d77",
        jwt,
      ])
        expect(stored, secret).not.toContain(secret);
      // what is not a credential stays readable
      const step = (nodeId: string) => trace.body.steps.find((s: { nodeId: string }) => s.nodeId === nodeId);
      expect(step("http_1").input.body).toBe('{"password":"[redacted]","note":"ok"}');
      expect(step("http_1").input.url).toContain("page=2");
      expect(step("http_2").input.body).toBe("user=ada&password=[redacted]");
      expect(step("http_3").input.url).toContain("/echo-text/reset-password/[redacted]/[redacted]");
      expect(trace.body.payload).toMatchObject({ form: "user=ada&password=[redacted]", keep: "dinner" });
      expect(trace.body.answer).toMatch(/"authorization":"(Bearer )?\[redacted\]"/);
      expect(trace.body.answer).toMatch(/^x-api-key: \[redacted\]$/im);
      expect(trace.body.answer).toContain("key [redacted]");
    });

    it("bad input: 4xx with the one error shape", async () => {
      const id = await createAgent(server, minimalWorkflow());
      await api(server, "POST", `/api/builder/agents/${id}/publish`, { body: { version: 1 } });
      const empty = await api(server, "POST", `/api/agents/${id}/chat`, { body: {} });
      expect(empty.status).toBe(400);
      expect(empty.body.error.code).toBe("REQUEST_INVALID");
      const required = await api(server, "POST", `/api/agents/${id}/chat`, { body: { input: {} } });
      expect(required.status).toBe(400);
      expect(required.body).toMatchObject({ error: { code: "INPUT_REQUIRED" }, traceId: expect.any(String) });
      const wrongType = await api(server, "POST", `/api/agents/${id}/chat`, { body: { input: { query: 42 } } });
      expect(wrongType.body.error.code).toBe("INPUT_INVALID_TYPE");
      expect((await api(server, "POST", `/api/agents/${id}/chat`, { rawBody: "{nope" })).body.error.code).toBe(
        "INVALID_JSON",
      );
      expect((await api(server, "POST", `/api/agents/missing/chat`, { body: { message: "x" } })).status).toBe(404);
      expect((await api(server, "POST", `/api/agents/${id}/test-run`, { body: { mode: "turbo" } })).status).toBe(400);
      expect((await api(server, "GET", `/api/traces/missing`)).status).toBe(404);
      expect(
        (await api(server, "POST", `/api/builder/agents/${id}/publish`, { body: { version: "one" } })).status,
      ).toBe(400);
    });

    it("permissions: viewers chat and score; test runs and publishing need builder.write; chat accepts no anonymous caller", async () => {
      const id = await createAgent(server, minimalWorkflow());
      const viewer = await tokenWithRole(server, "viewer");
      expect(
        (await api(server, "POST", `/api/builder/agents/${id}/publish`, { token: viewer, body: { version: 1 } }))
          .status,
      ).toBe(403);
      expect(
        (await api(server, "POST", `/api/agents/${id}/test-run`, { token: viewer, body: { input: {} } })).status,
      ).toBe(403);
      const builder = await tokenWithRole(server, "builder");
      expect(
        (await api(server, "POST", `/api/builder/agents/${id}/publish`, { token: builder, body: { version: 1 } }))
          .status,
      ).toBe(200);
      expect(
        (await api(server, "POST", `/api/agents/${id}/chat`, { token: viewer, body: { message: "hi" } })).status,
      ).toBe(200);
      expect(
        (await api(server, "POST", `/api/agents/${id}/chat`, { token: null, body: { message: "hi" } })).status,
      ).toBe(401);
    });

    it("tRPC twin: builder.agents.publish, chat, testRun, traces.list/get, feedback", async () => {
      const client = trpc(server);
      const id = await createAgent(server, minimalWorkflow());
      const notYet = trpcErrorOf(await client.runtime.chat.mutate({ id, body: { message: "x" } }).catch((e) => e));
      expect(notYet).toMatchObject({ httpStatus: 409, appCode: "AGENT_NOT_PUBLISHED" });
      await client.builder.agents.publish.mutate({ id, body: { version: 1 } });
      const chat = await client.runtime.chat.mutate({ id, body: { message: `trpc ${Date.now()}` } });
      expect(chat.answer).toContain("Question: trpc");
      const run = await client.runtime.testRun.mutate({ id, body: { input: { query: "canvas" }, mode: "invoke" } });
      expect(run).toMatchObject({ source: "test_run", mode: "invoke", status: "succeeded" });
      expect(run.steps).toHaveLength(3);
      await client.runtime.feedback.mutate({ id: chat.traceId, body: { score: 4 } });
      const list = await client.runtime.traces.list.query({ agentId: id });
      expect(list.items.map((t) => t.source).sort()).toEqual(["chat", "test_run"]);
      const got = await client.runtime.traces.get.query({ id: chat.traceId });
      expect(got.feedback.map((f) => f.score)).toEqual([4]);
      const viewer = await tokenWithRole(server, "viewer");
      const denied = trpcErrorOf(
        await trpc(server, viewer)
          .runtime.testRun.mutate({ id, body: { input: {} } })
          .catch((e) => e),
      );
      expect(denied.httpStatus).toBe(403);
    });
  });
}
