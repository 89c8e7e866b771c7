import { afterEach, describe, expect, it, vi } from "vitest";
import {
  LlmError,
  createLlmProvider,
  createOfflineProvider,
  isLlmConfigured,
  llmSettingsFromEnv,
  offlineAnswer,
} from ".";
import { parseEnv } from "../core/env";
import { startFakeLlmServer, type FakeLlmServer } from "./testing";
import type { LlmSettings } from "./types";

const servers: FakeLlmServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function fake(opts: Parameters<typeof startFakeLlmServer>[0] = {}) {
  const s = await startFakeLlmServer(opts);
  servers.push(s);
  return s;
}

const settings = (baseUrl: string, extra: Partial<LlmSettings> = {}): LlmSettings => ({
  baseUrl,
  model: "test-model",
  timeoutMs: 5000,
  maxRetries: 2,
  ...extra,
});

describe("provider selection", () => {
  it("is offline only when neither OPENAI_BASE_URL nor OPENAI_API_KEY is set", () => {
    expect(createLlmProvider(llmSettingsFromEnv(parseEnv({}))).offline).toBe(true);
    expect(createLlmProvider(llmSettingsFromEnv(parseEnv({}))).name).toBe("offline");
    const local = createLlmProvider(llmSettingsFromEnv(parseEnv({ OPENAI_BASE_URL: "http://127.0.0.1:1/v1" })));
    expect(local).toMatchObject({ offline: false, name: "openai-compatible" });
    const hosted = createLlmProvider(llmSettingsFromEnv(parseEnv({ OPENAI_API_KEY: "sk-test" })));
    expect(hosted).toMatchObject({ offline: false, name: "openai" });
    expect(isLlmConfigured({})).toBe(false);
    expect(llmSettingsFromEnv(parseEnv({})).model).toBe("gpt-4o-mini");
  });

  it("a configured provider that fails is an error, never a silent offline answer", async () => {
    const provider = createLlmProvider(settings("http://127.0.0.1:9/v1", { maxRetries: 0, timeoutMs: 1000 }));
    await expect(provider.chat({ messages: [{ role: "user", content: "hi" }] })).rejects.toMatchObject({
      code: "LLM_UNAVAILABLE",
    });
  });
});

describe("OpenAI-compatible provider (the real openai client over HTTP)", () => {
  it("sends model, messages, temperature and max_tokens; returns text, usage and model", async () => {
    const s = await fake();
    const provider = createLlmProvider(settings(s.url, { apiKey: "sk-local" }));
    const res = await provider.chat({
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "What is 2+2?" },
      ],
      temperature: 0.1,
      maxTokens: 64,
    });
    expect(res.text).toBe("echo: What is 2+2?");
    expect(res.model).toBe("test-model");
    expect(res.usage.promptTokens).toBeGreaterThan(0);
    expect(res.usage.completionTokens).toBeGreaterThan(0);
    const req = s.requests[0];
    expect(req?.body).toMatchObject({ model: "test-model", temperature: 0.1, max_tokens: 64 });
    expect(req?.body.messages).toHaveLength(2);
    expect(req?.headers.authorization).toBe("Bearer sk-local");
  });

  it("retries a 429 honouring Retry-After, then succeeds", async () => {
    const s = await fake({ script: [{ kind: "error", status: 429, headers: { "retry-after": "0.3" } }] });
    const t = Date.now();
    const res = await createLlmProvider(settings(s.url)).chat({
      messages: [{ role: "user", content: "again" }],
      model: "m2",
    });
    expect(res.text).toBe("echo: again");
    expect(s.requests).toHaveLength(2);
    expect(Date.now() - t).toBeGreaterThanOrEqual(280);
  });

  it("retries 500s with backoff (bounded: 3 attempts), then fails with LLM_UNAVAILABLE", async () => {
    const ok = await fake({
      script: [
        { kind: "error", status: 500 },
        { kind: "error", status: 503 },
      ],
    });
    expect((await createLlmProvider(settings(ok.url)).chat({ messages: [{ role: "user", content: "x" }] })).text).toBe(
      "echo: x",
    );
    expect(ok.requests).toHaveLength(3);

    const down = await fake({
      script: [0, 1, 2, 3].map(() => ({ kind: "error" as const, status: 500, headers: { "retry-after-ms": "10" } })),
    });
    const e = await createLlmProvider(settings(down.url))
      .chat({ messages: [{ role: "user", content: "x" }] })
      .catch((err: unknown) => err);
    expect(e).toBeInstanceOf(LlmError);
    expect((e as LlmError).code).toBe("LLM_UNAVAILABLE");
    expect(down.requests).toHaveLength(3);
  });

  it("sends an Idempotency-Key: the same on the SDK's retries; from a scope, the same for the same call made again", async () => {
    const s = await fake({ script: [{ kind: "error", status: 500, headers: { "retry-after-ms": "10" } }] });
    const provider = createLlmProvider(settings(s.url));
    const key = (i: number) => s.requests[i]?.headers["idempotency-key"];
    // no scope (chat, test runs): a key of the call's own, resent on the SDK's retry, another for the next call
    await provider.chat({ messages: [{ role: "user", content: "x" }] });
    await provider.chat({ messages: [{ role: "user", content: "x" }] });
    expect(s.requests).toHaveLength(3);
    expect(key(0)).toMatch(/^flowbench-[0-9a-f-]{36}$/);
    expect(key(1)).toBe(key(0));
    expect(key(2)).not.toBe(key(0));
    // a scope (an evaluation item's call): the same call made again (another process, later) sends the same key;
    // another scope or another request body sends another key
    const call = (scope: string, content = "q") =>
      provider.chat({ messages: [{ role: "user", content }], idempotencyScope: scope });
    await call("eval:run1:item1:t0:llm");
    await createLlmProvider(settings(s.url)).chat({
      messages: [{ role: "user", content: "q" }],
      idempotencyScope: "eval:run1:item1:t0:llm",
    });
    await call("eval:run1:item2:t0:llm");
    await call("eval:run1:item1:t0:llm", "a different prompt");
    expect(key(3)).toMatch(/^flowbench-[0-9a-f]{48}$/);
    expect(key(4)).toBe(key(3));
    expect(new Set([key(3), key(5), key(6)]).size).toBe(3);
  });

  it("does not retry a refused key (401) and names it", async () => {
    const s = await fake({ script: [{ kind: "error", status: 401, message: "bad key" }] });
    await expect(
      createLlmProvider(settings(s.url)).chat({ messages: [{ role: "user", content: "x" }] }),
    ).rejects.toMatchObject({ code: "LLM_AUTH_FAILED" });
    expect(s.requests).toHaveLength(1);
  });

  it("times out a slow answer (retried) with LLM_TIMEOUT", async () => {
    const s = await fake({ delayMs: 2000 });
    const e = await createLlmProvider(settings(s.url, { timeoutMs: 150, maxRetries: 1 }))
      .chat({ messages: [{ role: "user", content: "x" }] })
      .catch((err: unknown) => err);
    expect((e as LlmError).code).toBe("LLM_TIMEOUT");
    expect(s.requests).toHaveLength(2);
  });

  it("an AbortSignal aborts the in-flight request (the server sees the connection close)", async () => {
    const s = await fake({ script: [{ kind: "hang" }] });
    const controller = new AbortController();
    const reason = new Error("user went away");
    void vi.waitFor(() => expect(s.requests).toHaveLength(1), { timeout: 20_000 }).then(() => controller.abort(reason)); // once it is in flight
    const t = Date.now();
    await expect(
      createLlmProvider(settings(s.url)).chat({
        messages: [{ role: "user", content: "x" }],
        signal: controller.signal,
      }),
    ).rejects.toBe(reason);
    expect(Date.now() - t).toBeLessThan(5000); // the abort ended it (a hang never answers)
    await vi.waitFor(() => expect(s.aborted).toBe(1));
    expect(s.requests).toHaveLength(1);
  });
});

describe("offline provider", () => {
  it("answers deterministically, labelled, with the items it was given", async () => {
    const provider = createOfflineProvider();
    const prompt = 'Recommend from: {"dishes":[{"name":"Mapo tofu"},{"name":"Kung pao chicken"}]} for dinner';
    const a = await provider.chat({ messages: [{ role: "user", content: prompt }] });
    const b = await provider.chat({ messages: [{ role: "user", content: prompt }] });
    expect(a.text).toBe(b.text);
    expect(a.text).toMatch(/^\[offline model/);
    expect(a.text).toContain("Items (2): Mapo tofu; Kung pao chicken");
    expect(a.model).toBe("offline");
    expect(a.usage.promptTokens).toBeGreaterThan(0);
  });

  it("mentions earlier turns of a conversation and honours an abort", async () => {
    expect(
      offlineAnswer([
        { role: "system", content: "s" },
        { role: "user", content: "first" },
        { role: "assistant", content: "one" },
        { role: "user", content: "second" },
      ]),
    ).toContain("Context: 2 earlier messages");
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(
      createOfflineProvider().chat({ messages: [{ role: "user", content: "x" }], signal: controller.signal }),
    ).rejects.toThrow("stop");
  });
});

describe("the provider's calls are counted (GET /api/metrics)", () => {
  it("tokens by model and type, and calls by outcome", async () => {
    const { metrics } = await import("../telemetry/metrics");
    const { createLlmProvider } = await import("./index");
    const read = async (name: string, labels: Record<string, string>) =>
      (await metrics().registry.getSingleMetric(name)!.get()).values
        .filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))
        .reduce((s, v) => s + v.value, 0);
    const before = {
      prompt: await read("flowbench_model_tokens_total", { model: "offline", type: "prompt" }),
      completion: await read("flowbench_model_tokens_total", { model: "offline", type: "completion" }),
      calls: await read("flowbench_model_calls_total", { model: "offline", outcome: "ok" }),
    };
    const provider = createLlmProvider({ model: "gpt-x", timeoutMs: 1000, maxRetries: 0 });
    const res = await provider.chat({ messages: [{ role: "user", content: "a breakfast dish near the office?" }] });
    expect(res.model).toBe("offline");
    expect(await read("flowbench_model_tokens_total", { model: "offline", type: "prompt" })).toBe(
      before.prompt + res.usage.promptTokens,
    );
    expect(await read("flowbench_model_tokens_total", { model: "offline", type: "completion" })).toBe(
      before.completion + res.usage.completionTokens,
    );
    expect(await read("flowbench_model_calls_total", { model: "offline", outcome: "ok" })).toBe(before.calls + 1);
    expect(res.usage.promptTokens).toBeGreaterThan(0);
  });
});
