import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "../db/client";
import { createLlmProvider } from "../llm";
import { startFakeLlmServer, type FakeLlmServer } from "../llm/testing";
import { executeWorkflow } from ".";
import type { SandboxRunner } from "./nodes/context";
import { createRunHarness, minimal, start, wf, type RunHarness, type WebhookServer } from "./testing";

let db: Db;
let close: () => Promise<void>;
let hook: WebhookServer;
let llm: FakeLlmServer;
let agentId: string;
let deps: RunHarness["deps"];
let run: RunHarness["run"];

beforeAll(async () => {
  ({ db, close, hook, llm, agentId, deps, run } = await createRunHarness());
}, 120_000);
afterAll(async () => close());

describe("executeWorkflow: the walk, the trace, limits and cancellation", () => {
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

  it("follows only the taken branch of a condition (edge labels or trueTarget/falseTarget); the other is skipped", async () => {
    const nodes = (cfg: Record<string, unknown>): Parameters<typeof wf>[0] => [
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
