import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client";
import { createLlmProvider } from "../../llm";
import { startFakeLlmServer, type FakeLlmServer } from "../../llm/testing";
import { abortWhen, createRunHarness, minimal, type RunHarness, type WebhookServer } from "../testing";

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

describe("the llm node: history, failing providers, cancellation", () => {
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
});
