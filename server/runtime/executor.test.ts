import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDb } from "../db/test-db";
import type { Db } from "../db/client";
import { createLlmProvider, createOfflineProvider } from "../llm";
import { startFakeLlmServer, type FakeLlmServer } from "../llm/testing";
import type { Workflow } from "../workflow";
import { executeWorkflow, inputFromMessage } from ".";
import { clearMemoryScope, runWorkflow } from "./executor";
import { HTTP_LIMITS, defaultResolver } from "./http/client";
import { originRules } from "./http/policy";
import type { RuntimeDeps, SandboxRunner } from "./nodes/context";
import { startWebhookServer, type WebhookServer } from "./testing";
import type { ExecuteOptions } from "./types";

/** Aborts once `ready()` holds (a request reached the fake server), so a test does not bet on how fast a busy machine gets there; resolves with the moment it aborted. */
async function abortWhen(controller: AbortController, ready: () => boolean): Promise<number> {
  for (const until = Date.now() + 20_000; !ready() && Date.now() < until; ) await new Promise((r) => setTimeout(r, 5));
  controller.abort();
  return Date.now();
}

let db: Db;
let close: () => Promise<void>;
let hook: WebhookServer;
let llm: FakeLlmServer;
let agentId: string;

beforeAll(async () => {
  ({ db, close } = await createTestDb());
  hook = await startWebhookServer();
  llm = await startFakeLlmServer();
  agentId = (await db.agent.create({ data: { name: "runtime test agent" } })).id;
}, 120_000);
afterAll(async () => {
  await hook.close();
  await llm.close();
  await close();
});

type N = { id: string; type: string; config?: Record<string, unknown> };
function wf(nodes: N[], edges: Array<[string, string] | [string, string, "true" | "false"]>): Workflow {
  return {
    nodes: nodes.map((n, i) => ({ id: n.id, type: n.type, config: n.config ?? {}, position: { x: i * 100, y: 0 } })),
    edges: edges.map(([source, target, condition]) => (condition ? { source, target, condition } : { source, target })),
  } as Workflow;
}

const start = (
  outputs: Array<Record<string, unknown>> = [{ name: "query", type: "string", required: true, default: "" }],
  variables?: Record<string, unknown>,
): N => ({
  id: "start",
  type: "start",
  config: variables ? { outputs, variables } : { outputs },
});

const fakeSandbox: SandboxRunner = {
  async run({ code, inputs }) {
    if (code.includes("raise"))
      throw Object.assign(new Error("ValueError: boom"), { name: "SandboxError", code: "PYTHON_ERROR" });
    return {
      result: { upper: String(inputs.text ?? "").toUpperCase(), keys: Object.keys(inputs) },
      stdout: "printed\n",
      stderr: "",
      durationMs: 1,
    };
  },
};

function deps(over: Partial<RuntimeDeps> = {}, allowed?: string): RuntimeDeps {
  return {
    llm: createOfflineProvider(),
    http: {
      webhookBaseUrl: hook.origin,
      policy: { rules: originRules(hook.origin, allowed), resolver: defaultResolver, ...HTTP_LIMITS },
    },
    sandbox: async () => fakeSandbox,
    ...over,
  };
}

const run = (
  workflow: Workflow,
  input: Record<string, unknown>,
  extra: Partial<ExecuteOptions> = {},
  d: RuntimeDeps = deps(),
) => runWorkflow(db, { workflow, input, mode: "pipeline_live", source: "test_run", agentId, ...extra }, d);

const minimal = () =>
  wf(
    [
      start(),
      { id: "llm_1", type: "llm", config: { systemPrompt: "You are helpful.", userPrompt: "{{start.query}}" } },
      { id: "end", type: "end", config: { output: "{{llm_1.result}}" } },
    ],
    [
      ["start", "llm_1"],
      ["llm_1", "end"],
    ],
  );

describe("executeWorkflow", () => {
  it("runs start -> llm -> end with the offline provider when nothing is configured, and writes the trace", async () => {
    const res = await executeWorkflow(db, {
      workflow: minimal(),
      input: { query: "What is for dinner?" },
      mode: "pipeline",
      source: "api",
      agentId,
    });
    expect(res.status).toBe("succeeded");
    expect(res.llmProvider).toBe("offline");
    expect(res.answer).toContain("Question: What is for dinner?");
    expect(res.steps.map((s) => [s.nodeId, s.status])).toEqual([
      ["start", "succeeded"],
      ["llm_1", "succeeded"],
      ["end", "succeeded"],
    ]);
    expect(res.usage.llmCalls).toBe(1);
    expect(res.usage.promptTokens).toBeGreaterThan(0);
    const llmStep = res.steps[1];
    expect(llmStep?.input).toMatchObject({ systemPrompt: "You are helpful.", userPrompt: "What is for dinner?" });
    expect(llmStep?.provider).toBe("offline");
    expect(llmStep?.usage?.completionTokens).toBeGreaterThan(0);

    const trace = await db.trace.findUniqueOrThrow({ where: { id: res.traceId } });
    expect(trace).toMatchObject({
      status: "succeeded",
      mode: "pipeline",
      source: "api",
      agentId,
      answer: res.answer,
      llmProvider: "offline",
      cache: "bypass",
    });
    expect(trace.finishedAt).toBeTruthy();
    expect((trace.steps as unknown[]).length).toBe(3);
    expect(trace.promptTokens).toBe(res.usage.promptTokens);
  });

  it("maps a message onto the start's declared outputs", () => {
    expect(inputFromMessage(minimal(), "hi")).toEqual({ query: "hi" });
    const other = wf(
      [
        start([
          { name: "locale", type: "string" },
          { name: "question", type: "string" },
        ]),
        { id: "end", type: "end" },
      ],
      [["start", "end"]],
    );
    expect(inputFromMessage(other, "hi")).toEqual({ question: "hi" });
    const first = wf(
      [
        start([
          { name: "n", type: "number" },
          { name: "prompt", type: "string" },
        ]),
        { id: "end", type: "end" },
      ],
      [["start", "end"]],
    );
    expect(inputFromMessage(first, "hi")).toEqual({ prompt: "hi" });
  });

  it("applies defaults, enforces required inputs and declared types", async () => {
    const w = wf(
      [
        start(
          [
            { name: "query", type: "string", required: true, default: "" },
            { name: "limit", type: "integer", default: 3 },
            { name: "locale", type: "string", required: true, default: "en" },
          ],
          { brand: "Flowbench" },
        ),
        {
          id: "end",
          type: "end",
          config: { output: "{{start.query}}|{{start.limit}}|{{start.locale}}|{{start.brand}}" },
        },
      ],
      [["start", "end"]],
    );
    expect((await run(w, { query: "q" })).answer).toBe("q|3|en|Flowbench");
    const missing = await run(w, {});
    expect(missing).toMatchObject({
      status: "failed",
      answer: null,
      error: { code: "INPUT_REQUIRED", nodeId: "start" },
    });
    expect(missing.error?.message).toMatch(/query/);
    expect((await run(w, { query: "   " })).error?.code).toBe("INPUT_REQUIRED");
    expect((await run(w, { query: "q", limit: "3" })).error?.code).toBe("INPUT_INVALID_TYPE");
    expect((await run(w, { query: "q", limit: 2.5 })).error?.code).toBe("INPUT_INVALID_TYPE");
    const trace = await db.trace.findUniqueOrThrow({ where: { id: missing.traceId } });
    expect(trace.status).toBe("failed");
    expect(trace.error).toMatchObject({ code: "INPUT_REQUIRED", nodeId: "start" });
  });

  it("follows only the taken branch of a condition (edge labels or trueTarget/falseTarget); the other is skipped", async () => {
    const nodes = (cfg: Record<string, unknown>): N[] => [
      start(),
      { id: "cond", type: "condition", config: { expression: 'start.query.contains("tofu")', ...cfg } },
      { id: "yes", type: "llm", config: { userPrompt: "YES {{start.query}}" } },
      { id: "no", type: "llm", config: { userPrompt: "NO {{start.query}}" } },
      { id: "end", type: "end", config: { output: "{{yes.result}}{{no.result}}" } },
    ];
    const labelled = wf(nodes({}), [
      ["start", "cond"],
      ["cond", "yes", "true"],
      ["cond", "no", "false"],
      ["yes", "end"],
      ["no", "end"],
    ]);
    const t = await run(labelled, { query: "mapo tofu" });
    expect(t.status).toBe("succeeded");
    expect(t.answer).toContain("YES mapo tofu");
    expect(t.answer).not.toContain("NO ");
    expect(t.steps.find((s) => s.nodeId === "no")?.status).toBe("skipped");
    expect(t.steps.find((s) => s.nodeId === "cond")?.output).toEqual({ result: true, branch: "true" });
    expect(t.usage.llmCalls).toBe(1);

    const targeted = wf(nodes({ trueTarget: "yes", falseTarget: "no" }), [
      ["start", "cond"],
      ["cond", "yes"],
      ["cond", "no"],
      ["yes", "end"],
      ["no", "end"],
    ]);
    const f = await run(targeted, { query: "noodles" });
    expect(f.answer).toContain("NO noodles");
    expect(f.steps.find((s) => s.nodeId === "yes")?.status).toBe("skipped");

    const bad = wf(nodes({ expression: "start.query + 1" }), [
      ["start", "cond"],
      ["cond", "yes", "true"],
      ["cond", "no", "false"],
      ["yes", "end"],
      ["no", "end"],
    ]);
    expect((await run(bad, { query: "x" })).error).toMatchObject({
      code: "CONDITION_EVALUATION_FAILED",
      nodeId: "cond",
    });
  });

  it("pipeline_live calls the owner's API; the end's payload keeps structured values of single {{refs}}", async () => {
    const w = wf(
      [
        start([{ name: "scene", type: "string", required: true }]),
        {
          id: "http_1",
          type: "http",
          config: { url: "/api/dishes", params: { scene: "{{start.scene}}" }, headers: { "x-api-key": "secret-key" } },
        },
        { id: "llm_1", type: "llm", config: { userPrompt: "Recommend one of {{http_1.result.dishes}}" } },
        {
          id: "end",
          type: "end",
          config: {
            output: "{{llm_1.result}}",
            payload: {
              goods_list: "{{http_1.result.dishes}}",
              count: "{{http_1.result.dishes.0.name}} and more",
              status: "{{http_1.status}}",
            },
          },
        },
      ],
      [
        ["start", "http_1"],
        ["http_1", "llm_1"],
        ["llm_1", "end"],
      ],
    );
    const before = hook.requests.length;
    const res = await run(w, { scene: "dinner" });
    expect(res.status).toBe("succeeded");
    expect(hook.requests.length).toBe(before + 1);
    expect(hook.requests.at(-1)?.path).toBe("/api/dishes?scene=dinner");
    expect(res.payload).toEqual({
      goods_list: [
        expect.objectContaining({ name: "Mapo tofu" }),
        expect.objectContaining({ name: "Kung pao chicken" }),
      ],
      count: "Mapo tofu and more",
      status: 200,
    });
    expect(res.answer).toContain("Items (2): Mapo tofu; Kung pao chicken");
    const httpStep = res.steps.find((s) => s.nodeId === "http_1");
    expect(httpStep?.output).toMatchObject({ status: 200, ok: true });
    expect(httpStep?.input).toMatchObject({
      method: "GET",
      url: `${hook.origin}/api/dishes?scene=dinner`,
      headers: { "x-api-key": "[redacted]" },
    });
    const trace = await db.trace.findUniqueOrThrow({ where: { id: res.traceId } });
    expect(trace.payload).toEqual(res.payload);
  });

  it("credentials reach the outgoing request but never the stored trace (headers, query, body, response)", async () => {
    const w = wf(
      [
        start([{ name: "who", type: "string", required: true }]),
        {
          id: "http_1",
          type: "http",
          config: {
            url: "/session?api_key={{start.who}}&page=2",
            method: "POST",
            params: { client_secret: "cs-1", scene: "dinner" },
            headers: {
              Authorization: "Bearer {{start.who}}",
              "X-Api-Key": "xk-1",
              Cookie: "sid=c-1",
              "X-Trace-Id": "t-1",
            },
            body: { password: "pw-1", keyword: "spicy", promptTokens: 5, nested: { refreshToken: "rt-1" } },
          },
        },
        {
          id: "end",
          type: "end",
          config: { output: "{{http_1.result.access_token}}|{{http_1.result.user.password}}" },
        },
      ],
      [
        ["start", "http_1"],
        ["http_1", "end"],
      ],
    );
    const res = await run(w, { who: "sk-live-123" });
    expect(res.status).toBe("succeeded");
    // the outgoing call carried every real value
    const seen = hook.requests.at(-1)!;
    expect(seen.headers.authorization).toBe("Bearer sk-live-123");
    expect(seen.headers["x-api-key"]).toBe("xk-1");
    expect(seen.headers.cookie).toBe("sid=c-1");
    expect(seen.path).toBe("/session?api_key=sk-live-123&page=2&client_secret=cs-1&scene=dinner");
    expect(JSON.parse(seen.body)).toEqual({
      password: "pw-1",
      keyword: "spicy",
      promptTokens: 5,
      nested: { refreshToken: "rt-1" },
    });
    // later nodes read the unredacted output
    expect(res.answer).toBe("tok-from-server|pw-from-server");
    // the stored http step (and the one in the answer) holds none of them; set-cookie is never kept at all
    const trace = await db.trace.findUniqueOrThrow({ where: { id: res.traceId } });
    const step = (
      trace.steps as Array<{ nodeId: string; input: Record<string, unknown>; output: Record<string, unknown> }>
    ).find((s) => s.nodeId === "http_1")!;
    for (const secret of [
      "sk-live-123",
      "xk-1",
      "sid=c-1",
      "cs-1",
      "pw-1",
      "rt-1",
      "tok-from-server",
      "hdr-from-server",
      "cookie-from-server",
      "pw-from-server",
    ]) {
      expect(JSON.stringify(step)).not.toContain(secret);
      expect(JSON.stringify(res.steps.find((s) => s.nodeId === "http_1"))).not.toContain(secret);
    }
    expect(step.input).toMatchObject({
      headers: { Authorization: "[redacted]", "X-Api-Key": "[redacted]", Cookie: "[redacted]", "X-Trace-Id": "t-1" },
      params: { client_secret: "[redacted]", scene: "dinner" },
      body: { password: "[redacted]", keyword: "spicy", promptTokens: 5, nested: { refreshToken: "[redacted]" } },
    });
    expect(step.input.url).toContain("page=2");
    expect(step.output).toMatchObject({
      result: { access_token: "[redacted]", user: { name: "ada", password: "[redacted]" }, count: 2 },
      headers: { "x-session-token": "[redacted]" },
    });
    expect(step.output.headers).not.toHaveProperty("set-cookie");

    // TRACE_REDACT=off stores the values as they are (a private debugging install)
    const plain = await run(w, { who: "sk-live-123" }, {}, deps({ redact: { enabled: false, extra: [] } }));
    expect(JSON.stringify(plain.steps.find((s) => s.nodeId === "http_1"))).toContain("Bearer sk-live-123");
    // TRACE_REDACT_NAMES adds names
    const extra = await run(w, { who: "sk-live-123" }, {}, deps({ redact: { enabled: true, extra: ["x-trace-id"] } }));
    expect(JSON.stringify(extra.steps)).not.toContain("t-1");
  });

  it("one redaction for all that a run stores: trace input by name, every node's steps, values templated onward, urls in error messages", async () => {
    const w = wf(
      [
        start([
          { name: "query", type: "string", required: true },
          { name: "password", type: "string", required: false },
          { name: "memory_key", type: "string", required: false, default: "s-1" },
        ]),
        { id: "http_1", type: "http", config: { url: "/session", method: "POST" } },
        {
          id: "code_1",
          type: "code",
          config: { code: "result = 1", inputs: { text: "{{http_1.result.access_token}}" } },
        },
        {
          id: "llm_1",
          type: "llm",
          config: { userPrompt: "Token {{http_1.result.access_token}} and {{start.password}} for {{start.query}}" },
        },
        {
          id: "mem",
          type: "memory_save",
          config: { agent_id: agentId, key: "{{start.memory_key}}", data: { seen: "{{http_1.result.access_token}}" } },
        },
        {
          id: "end",
          type: "end",
          config: {
            output: "{{llm_1.result}} / {{http_1.result.access_token}}",
            payload: { t: "{{http_1.result.access_token}}" },
          },
        },
      ],
      [
        ["start", "http_1"],
        ["http_1", "code_1"],
        ["code_1", "llm_1"],
        ["llm_1", "mem"],
        ["mem", "end"],
      ],
    );
    const res = await run(w, { query: "what is for dinner", password: "hunter2-secret" }, { source: "chat" });
    expect(res.status).toBe("succeeded");
    // the caller gets the answer as the workflow made it; later nodes read real values
    expect(res.answer).toContain("tok-from-server");
    expect(res.payload).toEqual({ t: "tok-from-server" });
    const trace = await db.trace.findUniqueOrThrow({ where: { id: res.traceId } });
    expect(trace.input).toEqual({ query: "what is for dinner", password: "[redacted]" });
    const stored = JSON.stringify(trace.steps);
    for (const secret of ["tok-from-server", "hunter2-secret", "pw-from-server"]) {
      expect(stored).not.toContain(secret);
      expect(JSON.stringify(res.steps)).not.toContain(secret);
    }
    const steps = trace.steps as Array<{
      nodeId: string;
      input: Record<string, unknown>;
      output: Record<string, unknown>;
    }>;
    const step = (id: string) => steps.find((s) => s.nodeId === id)!;
    expect(step("start").input).toEqual({ query: "what is for dinner", password: "[redacted]" });
    expect(step("code_1").input).toMatchObject({ inputs: { text: "[redacted]" } });
    expect(step("llm_1").input.userPrompt).toBe("Token [redacted] and [redacted] for what is for dinner");
    // structural fields stay readable: the memory step's key and scope, a start output merely named like one
    expect(step("mem").input).toMatchObject({ key: "s-1", scope: "production", data: { seen: "[redacted]" } });
    expect(step("start").output).toMatchObject({ query: "what is for dinner", memory_key: "s-1" });
    expect(step("end").output).toEqual({ output: expect.stringContaining("[redacted]"), payload: { t: "[redacted]" } });

    // an http error message embedding the url with its api key
    const bad = (url: string) =>
      wf(
        [
          start([{ name: "query", type: "string", required: true }]),
          { id: "http_1", type: "http", config: { url } },
          { id: "end", type: "end", config: { output: "x" } },
        ],
        [
          ["start", "http_1"],
          ["http_1", "end"],
        ],
      );
    const invalid = await run(bad("{{start.query}}"), { query: "ftp://files.example.com/x?api_key=sk-abcdef123" });
    expect(invalid.error?.code).toBe("HTTP_URL_INVALID");
    const relative = await run(
      bad("/x?api_key={{start.query}}"),
      { query: "sk-abcdef123" },
      {},
      deps({ http: { policy: deps().http.policy } }),
    );
    expect(relative.error?.code).toBe("HTTP_BASE_URL_UNSET");
    for (const r of [invalid, relative]) {
      const t = await db.trace.findUniqueOrThrow({ where: { id: r.traceId } });
      expect(JSON.stringify([t.error, t.steps])).not.toContain("sk-abcdef123");
      expect(JSON.stringify(r.error)).not.toContain("sk-abcdef123");
    }
  });

  it("tiers: pipeline makes ZERO network requests (dry run), invoke skips http nodes, both recorded in the trace", async () => {
    const w = wf(
      [
        start(),
        { id: "http_1", type: "http", config: { url: "/api/dishes", method: "POST", body: { q: "{{start.query}}" } } },
        { id: "http_2", type: "http", config: { url: `${hook.origin}/health` } },
        { id: "llm_1", type: "llm", config: { userPrompt: "{{start.query}} {{http_1.result}} {{http_2.status}}" } },
        {
          id: "end",
          type: "end",
          config: {
            output: "{{llm_1.result}}",
            payload: { items: "{{http_1.result.items}}", dry: "{{http_1.result.dryRun}}" },
          },
        },
      ],
      [
        ["start", "http_1"],
        ["http_1", "http_2"],
        ["http_2", "llm_1"],
        ["llm_1", "end"],
      ],
    );
    const before = hook.requests.length;
    const dry = await run(w, { query: "q" }, { mode: "pipeline" });
    expect(hook.requests.length).toBe(before);
    expect(dry.status).toBe("succeeded");
    expect(dry.payload).toEqual({ items: [], dry: true });
    expect(dry.steps.find((s) => s.nodeId === "http_1")).toMatchObject({
      status: "succeeded",
      output: { status: 200, ok: true, result: { items: [], dryRun: true }, headers: {} },
    });
    expect(dry.steps.find((s) => s.nodeId === "http_1")?.input).toMatchObject({
      dryRun: true,
      method: "POST",
      body: { q: "q" },
    });

    // a dry run needs no configuration: without WEBHOOK_BASE_URL the relative url is only noted
    const unconfigured = await run(
      w,
      { query: "q" },
      { mode: "pipeline" },
      deps({ http: { policy: deps().http.policy } }),
    );
    expect(unconfigured.status).toBe("succeeded");
    expect(unconfigured.steps.find((s) => s.nodeId === "http_1")?.input).toMatchObject({
      url: "/api/dishes",
      note: expect.stringContaining("WEBHOOK_BASE_URL"),
    });
    expect(
      (await run(w, { query: "q" }, { mode: "pipeline_live" }, deps({ http: { policy: deps().http.policy } }))).error,
    ).toMatchObject({ code: "HTTP_BASE_URL_UNSET", nodeId: "http_1" });
    expect(hook.requests.length).toBe(before);

    const invoke = await run(w, { query: "q" }, { mode: "invoke" });
    expect(hook.requests.length).toBe(before);
    expect(invoke.status).toBe("succeeded");
    expect(invoke.steps.filter((s) => s.type === "http").map((s) => s.status)).toEqual(["skipped", "skipped"]);
    expect(invoke.steps.find((s) => s.nodeId === "llm_1")?.status).toBe("succeeded");

    const live = await run(w, { query: "q" }, { mode: "pipeline_live" });
    expect(live.status).toBe("succeeded");
    expect(hook.requests.length).toBe(before + 2);
    expect(JSON.parse(hook.requests.at(-2)?.body ?? "{}")).toEqual({ q: "q" });

    const modes = await db.trace.findMany({
      where: { id: { in: [dry.traceId, invoke.traceId, live.traceId] } },
      select: { mode: true },
    });
    expect(modes.map((m) => m.mode).sort()).toEqual(["invoke", "pipeline", "pipeline_live"]);
  });

  it("an SSRF attempt fails the http node with HTTP_FORBIDDEN_DESTINATION and the node id; the step shows the url", async () => {
    const w = wf(
      [
        start(),
        { id: "http_1", type: "http", config: { url: "http://169.254.169.254/latest/meta-data/{{start.query}}" } },
        { id: "end", type: "end", config: { output: "{{http_1.result}}" } },
      ],
      [
        ["start", "http_1"],
        ["http_1", "end"],
      ],
    );
    const res = await run(w, { query: "iam" }, {}, deps({}, "*"));
    expect(res).toMatchObject({ status: "failed", error: { code: "HTTP_FORBIDDEN_DESTINATION", nodeId: "http_1" } });
    const step = res.steps.find((s) => s.nodeId === "http_1");
    expect(step).toMatchObject({
      status: "failed",
      error: { code: "HTTP_FORBIDDEN_DESTINATION" },
      input: { url: "http://169.254.169.254/latest/meta-data/iam" },
    });
  });

  it("memory round trip: save (data templates, extractFrom) merges; a later run loads selected fields", async () => {
    const saver = wf(
      [
        start([
          { name: "query", type: "string", required: true },
          { name: "sessionId", type: "string", default: "" },
        ]),
        { id: "llm_1", type: "llm", config: { userPrompt: "{{start.query}}" } },
        {
          id: "save_1",
          type: "memory_save",
          config: { agent_id: "support-bot", data: { last_question: "{{start.query}}", turn: "{{start.sessionId}}" } },
        },
        { id: "save_2", type: "memory_save", config: { agent_id: "support-bot", extractFrom: "llm_1.result" } },
        { id: "end", type: "end", config: { output: "saved" } },
      ],
      [
        ["start", "llm_1"],
        ["llm_1", "save_1"],
        ["save_1", "save_2"],
        ["save_2", "end"],
      ],
    );
    // online (chat): the agent's production memory
    const saved = await run(saver, { query: "I like tofu" }, { sessionId: "s-42", source: "chat" });
    expect(saved.status).toBe("succeeded");
    expect(saved.steps.find((s) => s.nodeId === "save_2")?.output).toMatchObject({
      saved: true,
      result: { last_question: "I like tofu", turn: "s-42" },
    });

    const loader = wf(
      [
        start([{ name: "sessionId", type: "string", required: true }]),
        {
          id: "load_1",
          type: "memory_load",
          config: { agent_id: "support-bot", fields: ["last_question", "result", "missing"] },
        },
        { id: "load_2", type: "memory_load", config: { agent_id: "support-bot", key: "someone-else" } },
        {
          id: "end",
          type: "end",
          config: {
            output: "{{load_1.result.last_question}}",
            payload: { memory: "{{load_1.result}}", found: "{{load_1.found}}", other: "{{load_2.found}}" },
          },
        },
      ],
      [
        ["start", "load_1"],
        ["load_1", "load_2"],
        ["load_2", "end"],
      ],
    );
    const loaded = await run(loader, { sessionId: "s-42" }, { source: "chat" });
    expect(loaded.answer).toBe("I like tofu");
    expect(loaded.payload).toMatchObject({
      found: true,
      other: false,
      memory: { last_question: "I like tofu", result: expect.stringContaining("I like tofu") },
    });
    expect(Object.keys(loaded.payload?.memory as object).sort()).toEqual(["last_question", "result"]);
    const row = await db.agentMemory.findFirstOrThrow({ where: { agentId, key: "support-bot/s-42" } });
    expect(row.memoryType).toBe("conversation");

    // A real agent id shares that agent's memory; without any agent a label is an error.
    const byId = wf(
      [
        start([{ name: "sessionId", type: "string" }]),
        { id: "load", type: "memory_load", config: { agent_id: agentId, key: "support-bot/s-42" } },
        { id: "end", type: "end", config: { output: "{{load.found}}" } },
      ],
      [
        ["start", "load"],
        ["load", "end"],
      ],
    );
    expect((await run(byId, {}, { agentId: undefined, source: "api" })).answer).toBe("true");
    expect((await run(loader, { sessionId: "s-42" }, { agentId: undefined, source: "chat" })).error).toMatchObject({
      code: "MEMORY_AGENT_UNKNOWN",
      nodeId: "load_1",
    });
  });

  it("memory is scoped by source: evaluations and test runs start empty and never touch the production memory", async () => {
    const nodes = (save: boolean) =>
      wf(
        [
          start([
            { name: "query", type: "string", required: true },
            { name: "sessionId", type: "string", default: "" },
          ]),
          { id: "load", type: "memory_load", config: { agent_id: "prefs", key: "u-1" } },
          ...(save
            ? [
                {
                  id: "save",
                  type: "memory_save",
                  config: { agent_id: "prefs", key: "u-1", data: { likes: "{{start.query}}" } },
                },
              ]
            : []),
          { id: "end", type: "end", config: { output: "{{load.result.likes}}|{{load.found}}" } },
        ],
        save
          ? [
              ["start", "load"],
              ["load", "save"],
              ["save", "end"],
            ]
          : [
              ["start", "load"],
              ["load", "end"],
            ],
      );
    const production = () =>
      db.agentMemory.findMany({ where: { agentId, key: "prefs/u-1" }, orderBy: { scope: "asc" } });
    // online users' memory
    await run(nodes(true), { query: "tofu" }, { source: "chat" });
    expect((await production()).map((r) => [r.scope, r.data])).toEqual([["", { likes: "tofu" }]]);
    // a test run does not see it and its own writes vanish with it
    const test = await run(nodes(true), { query: "pork" }, { source: "test_run" });
    expect(test.answer).toBe("|false");
    expect(test.steps.find((s) => s.nodeId === "save")?.input).toMatchObject({ scope: `test_run:${test.traceId}` });
    // an evaluation item: one scope for all its turns, empty at the start
    const turn1 = await run(nodes(true), { query: "beef" }, { source: "eval", memoryScope: "eval-item:x:1" });
    const turn2 = await run(nodes(false), { query: "?" }, { source: "eval", memoryScope: "eval-item:x:1" });
    expect([turn1.answer, turn2.answer]).toEqual(["|false", "beef|true"]);
    // the production memory is exactly what the chat wrote; the eval scope is separate; the test run left nothing
    expect((await production()).map((r) => [r.scope, r.data])).toEqual([
      ["", { likes: "tofu" }],
      ["eval-item:x:1", { likes: "beef" }],
    ]);
    expect(await clearMemoryScope(db, "eval-item:x:1")).toBe(1);
    expect(await clearMemoryScope(db, "")).toBe(0); // never production
    expect((await run(nodes(false), { query: "?" }, { source: "chat" })).answer).toBe("tofu|true");
  });

  it("code node: inputs rendered (structured), result and stdout exposed; sandbox errors keep their code", async () => {
    const w = (code: string) =>
      wf(
        [
          start(),
          { id: "code_1", type: "code", config: { code, inputs: { text: "{{start.query}}" } } },
          {
            id: "end",
            type: "end",
            config: {
              output: "{{code_1.result.upper}}",
              payload: { out: "{{code_1.result}}", stdout: "{{code_1.stdout}}" },
            },
          },
        ],
        [
          ["start", "code_1"],
          ["code_1", "end"],
        ],
      );
    const ok = await run(w("result = inputs['text'].upper()"), { query: "tofu" });
    expect(ok.answer).toBe("TOFU");
    expect(ok.payload).toEqual({ out: { upper: "TOFU", keys: ["text"] }, stdout: "printed\n" });
    const failed = await run(w("raise ValueError('boom')"), { query: "tofu" });
    expect(failed.error).toMatchObject({ code: "PYTHON_ERROR", nodeId: "code_1" });
    const unavailable = await run(
      w("result = 1"),
      { query: "x" },
      {},
      deps({ sandbox: async () => Promise.reject(new Error("no pyodide")) }),
    );
    expect(unavailable.error?.code).toBe("SANDBOX_UNAVAILABLE");
  });

  it("text PostgreSQL cannot store that a node produces (NUL, lone surrogates) is stored and returned as U+FFFD, never a failed trace write", async () => {
    const nulSandbox: SandboxRunner = {
      async run({ code }) {
        if (code.includes("raise"))
          throw Object.assign(new Error("bad \u0000 byte"), { name: "SandboxError", code: "PYTHON_ERROR" });
        return {
          result: { text: "a\u0000b", lone: "x\ud800", "k\u0000": 1 },
          stdout: "out\u0000",
          stderr: "",
          durationMs: 1,
        };
      },
    };
    const w = (code: string) =>
      wf(
        [
          start(),
          { id: "code_1", type: "code", config: { code } },
          {
            id: "mem",
            type: "memory_save",
            config: { key: "{{code_1.result.text}}", data: { v: "{{code_1.result.text}}" } },
          },
          {
            id: "end",
            type: "end",
            config: { output: "{{code_1.result.text}}", payload: { out: "{{code_1.result}}" } },
          },
        ],
        [
          ["start", "code_1"],
          ["code_1", "mem"],
          ["mem", "end"],
        ],
      );
    const ok = await run(
      w("result = 'a' + chr(0) + 'b'"),
      { query: "q" },
      { source: "chat" },
      deps({ sandbox: async () => nulSandbox }),
    );
    expect(ok.status).toBe("succeeded");
    expect(ok.answer).toBe("a\ufffdb");
    expect(ok.payload).toEqual({ out: { text: "a\ufffdb", lone: "x\ufffd", "k\ufffd": 1 } });
    const trace = await db.trace.findUniqueOrThrow({ where: { id: ok.traceId } });
    expect(trace.status).toBe("succeeded");
    expect(trace.answer).toBe("a\ufffdb");
    expect(JSON.stringify(trace.steps)).toContain("out\ufffd");
    expect(await db.agentMemory.findFirst({ where: { agentId, key: "a\ufffdb" }, select: { data: true } })).toEqual({
      data: { v: "a\ufffdb" },
    });
    // an error message carrying NUL is stored too
    const failed = await run(w("raise"), { query: "q" }, {}, deps({ sandbox: async () => nulSandbox }));
    expect(failed.error).toMatchObject({ code: "PYTHON_ERROR", message: expect.stringContaining("bad \ufffd byte") });
    expect((await db.trace.findUniqueOrThrow({ where: { id: failed.traceId } })).status).toBe("failed");
  });

  it("a start output named history receives the earlier turns (string transcript or array), unless the caller passes it", async () => {
    const workflow = wf(
      [
        start([
          { name: "query", type: "string", required: true, default: "" },
          { name: "history", type: "string", default: "" },
          { name: "turns", type: "array" },
        ]),
        { id: "end", type: "end", config: { output: "{{start.history}}", payload: { turns: "{{start.turns}}" } } },
      ],
      [["start", "end"]],
    );
    const history = [
      { role: "user" as const, content: "breakfast please" },
      { role: "assistant" as const, content: "Try the congee." },
    ];
    const res = await run(workflow, { query: "and a drink?" }, { history });
    expect(res.status).toBe("succeeded");
    expect(res.answer).toBe("user: breakfast please\nassistant: Try the congee.");
    expect(res.payload).toEqual({ turns: null }); // only the declared name `history` is a run fact
    const arrayWf = wf(
      [
        start([
          { name: "query", type: "string", required: true, default: "" },
          { name: "history", type: "array" },
        ]),
        { id: "end", type: "end", config: { output: "x", payload: { h: "{{start.history}}" } } },
      ],
      [["start", "end"]],
    );
    expect((await run(arrayWf, { query: "q" }, { history })).payload).toEqual({ h: history });
    expect((await run(workflow, { query: "q", history: "given" }, { history })).answer).toBe("given");
    expect((await run(workflow, { query: "q" })).answer).toBe("");
  });

  it("llm nodes get the history as prior messages, through the real openai client", async () => {
    const provider = createLlmProvider({ baseUrl: llm.url, model: "fake-1", timeoutMs: 5000, maxRetries: 2 });
    const before = llm.requests.length;
    const res = await run(
      minimal(),
      { query: "and tomorrow?" },
      {
        history: [
          { role: "user", content: "what is for dinner?" },
          { role: "assistant", content: "tofu" },
        ],
      },
      deps({ llm: provider }),
    );
    expect(res.status).toBe("succeeded");
    expect(res.llmProvider).toBe("openai-compatible");
    expect(res.answer).toBe("echo: and tomorrow?");
    const sent = llm.requests[before]?.body;
    expect(sent?.model).toBe("fake-1");
    expect(sent?.messages?.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(sent?.temperature).toBe(0.7);
    expect(sent?.max_tokens).toBe(2048);
    expect(res.steps[1]?.output).toMatchObject({ model: "fake-1", usage: { total_tokens: expect.any(Number) } });
  });

  it("a configured provider that fails fails the node (never an offline answer)", async () => {
    const down = await startFakeLlmServer({
      script: [0, 1, 2].map(() => ({ kind: "error" as const, status: 503, headers: { "retry-after-ms": "5" } })),
    });
    try {
      const res = await run(
        minimal(),
        { query: "x" },
        {},
        deps({ llm: createLlmProvider({ baseUrl: down.url, model: "m", timeoutMs: 2000, maxRetries: 2 }) }),
      );
      expect(res).toMatchObject({
        status: "failed",
        answer: null,
        llmProvider: "openai-compatible",
        error: { code: "LLM_UNAVAILABLE", nodeId: "llm_1" },
      });
      expect(down.requests).toHaveLength(3);
    } finally {
      await down.close();
    }
  });

  it("cancellation: aborting while a slow LLM answers aborts the request and the trace says cancelled", async () => {
    const slow = await startFakeLlmServer({ delayMs: 5000 });
    try {
      const controller = new AbortController();
      const arrived = abortWhen(controller, () => slow.requests.length > 0); // once the request is at the model, not at a fixed time
      const res = await run(
        minimal(),
        { query: "x" },
        { signal: controller.signal },
        deps({ llm: createLlmProvider({ baseUrl: slow.url, model: "m", timeoutMs: 30_000, maxRetries: 2 }) }),
      );
      expect(Date.now() - (await arrived)).toBeLessThan(3000); // aborted, not the model's 5 s answer waited for
      expect(res).toMatchObject({ status: "cancelled", error: { code: "CANCELLED", nodeId: "llm_1" } });
      await vi.waitFor(() => expect(slow.aborted).toBe(1));
      expect(slow.requests).toHaveLength(1);
      const trace = await db.trace.findUniqueOrThrow({ where: { id: res.traceId } });
      expect(trace.status).toBe("cancelled");
      expect(trace.error).toMatchObject({ code: "CANCELLED" });
    } finally {
      await slow.close();
    }
  });

  it("cancellation reaches an in-flight HTTP request", async () => {
    const w = wf(
      [
        start(),
        { id: "http_1", type: "http", config: { url: "/slow?ms=5000", timeout: 30_000 } },
        { id: "end", type: "end", config: { output: "{{http_1.status}}" } },
      ],
      [
        ["start", "http_1"],
        ["http_1", "end"],
      ],
    );
    const controller = new AbortController();
    const before = hook.requests.length;
    const arrived = abortWhen(controller, () => hook.requests.length > before);
    const res = await run(w, { query: "x" }, { signal: controller.signal });
    expect(Date.now() - (await arrived)).toBeLessThan(3000); // aborted, not the 5 s answer waited for
    expect(res).toMatchObject({ status: "cancelled", error: { code: "CANCELLED", nodeId: "http_1" } });
    expect(res.steps.find((s) => s.nodeId === "http_1")).toMatchObject({
      status: "failed",
      error: { code: "CANCELLED" },
      input: { url: `${hook.origin}/slow?ms=5000` },
    });
  });

  it("limits: total time (RUN_TIMEOUT aborts the in-flight call) and steps (LIMIT_STEPS)", async () => {
    const slow = await startFakeLlmServer({ delayMs: 5000 });
    try {
      // 1.5 s: long enough for the run to reach the model on a busy machine, far shorter than its 5 s answer
      const res = await run(
        minimal(),
        { query: "x" },
        { limits: { timeoutMs: 1500 } },
        deps({ llm: createLlmProvider({ baseUrl: slow.url, model: "m", timeoutMs: 30_000, maxRetries: 2 }) }),
      );
      expect(res).toMatchObject({ status: "failed", error: { code: "RUN_TIMEOUT", nodeId: "llm_1" } });
      await vi.waitFor(() => expect(slow.aborted).toBe(1));
    } finally {
      await slow.close();
    }
    const steps = await run(minimal(), { query: "x" }, { limits: { maxSteps: 2 } });
    expect(steps.error).toMatchObject({ code: "LIMIT_STEPS", nodeId: "end" });
  });

  it("an aborted signal before the start cancels at once; a cycle is WORKFLOW_INVALID; nothing rejects", async () => {
    const controller = new AbortController();
    controller.abort();
    expect((await run(minimal(), { query: "x" }, { signal: controller.signal })).status).toBe("cancelled");
    const cyclic = wf(
      [
        start(),
        { id: "a", type: "llm", config: { userPrompt: "x" } },
        { id: "b", type: "llm", config: { userPrompt: "y" } },
        { id: "end", type: "end" },
      ],
      [
        ["start", "a"],
        ["a", "b"],
        ["b", "a"],
        ["b", "end"],
      ],
    );
    expect((await run(cyclic, { query: "x" })).error?.code).toBe("WORKFLOW_INVALID");
    const badConfig = wf(
      [start(), { id: "llm_1", type: "llm", config: { userPrompt: "x", temperature: 9 } }, { id: "end", type: "end" }],
      [
        ["start", "llm_1"],
        ["llm_1", "end"],
      ],
    );
    expect((await run(badConfig, { query: "x" })).error).toMatchObject({
      code: "NODE_CONFIG_INVALID",
      nodeId: "llm_1",
    });
  });

  it("large step values are stored truncated", async () => {
    const w = wf(
      [
        start(),
        { id: "http_1", type: "http", config: { url: "/big?bytes=200000" } },
        { id: "end", type: "end", config: { output: "{{http_1.status}}" } },
      ],
      [
        ["start", "http_1"],
        ["http_1", "end"],
      ],
    );
    const res = await run(w, { query: "x" });
    expect(res.answer).toBe("200");
    const out = res.steps.find((s) => s.nodeId === "http_1")?.output as { truncated: boolean; characters: number };
    expect(out.truncated).toBe(true);
    expect(out.characters).toBeGreaterThan(200_000);
  });
});
