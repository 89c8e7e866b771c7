/**
 * Language-model providers. `getLlmProvider()` is the one entry point: the configured OpenAI-compatible provider,
 * or the built-in offline one when nothing is configured. A configured provider that fails makes the caller fail;
 * the offline provider is never a silent fallback.
 */
import { env, type Env } from "../core/env";
import { createOfflineProvider, OFFLINE_MODEL } from "./offline";
import { createOpenAiProvider } from "./openai";
import { metrics } from "../telemetry/metrics";
import { inSpan } from "../telemetry/tracing";
import type { LlmProvider, LlmSettings } from "./types";

export type { ChatTurn, LlmProvider, LlmRequest, LlmResponse, LlmSettings, LlmUsage } from "./types";
export { LlmError, type LlmErrorCode } from "./errors";
export { createOfflineProvider, offlineAnswer, OFFLINE_MODEL } from "./offline";
export { createOpenAiProvider } from "./openai";

/** Retries after the first attempt: 3 attempts in all. */
export const LLM_MAX_RETRIES = 2;

export function llmSettingsFromEnv(
  e: Pick<Env, "OPENAI_BASE_URL" | "OPENAI_API_KEY" | "OPENAI_MODEL" | "OPENAI_TIMEOUT_MS"> = env(),
): LlmSettings {
  return {
    baseUrl: e.OPENAI_BASE_URL,
    apiKey: e.OPENAI_API_KEY,
    model: e.OPENAI_MODEL,
    timeoutMs: e.OPENAI_TIMEOUT_MS,
    maxRetries: LLM_MAX_RETRIES,
  };
}

/** A provider is configured when a base URL or an API key is set. */
export function isLlmConfigured(settings: Pick<LlmSettings, "baseUrl" | "apiKey">): boolean {
  return Boolean(settings.baseUrl || settings.apiKey);
}

/** The provider for these settings: OpenAI-compatible when configured, otherwise offline; its calls counted. */
export function createLlmProvider(settings: LlmSettings): LlmProvider {
  return counted(isLlmConfigured(settings) ? createOpenAiProvider(settings) : createOfflineProvider(), settings.model);
}

/**
 * Counts every call and the tokens its answer reports (flowbench_model_calls_total, flowbench_model_tokens_total),
 * and records it as a span with the OpenTelemetry GenAI conventions (`chat <model>`, CLIENT; a no-op while traces
 * are off): the system, the requested and answering model, the tokens the provider reported. Never the messages.
 */
function counted(provider: LlmProvider, defaultModel: string): LlmProvider {
  const system = provider.offline ? "flowbench.offline" : "openai";
  return {
    ...provider,
    chat(req) {
      const requested = req.model ?? (provider.offline ? OFFLINE_MODEL : defaultModel);
      const attributes = {
        "gen_ai.operation.name": "chat",
        "gen_ai.system": system,
        "gen_ai.provider.name": system,
        "gen_ai.request.model": requested,
        ...(req.temperature !== undefined ? { "gen_ai.request.temperature": req.temperature } : {}),
        ...(req.maxTokens !== undefined ? { "gen_ai.request.max_tokens": req.maxTokens } : {}),
      };
      return inSpan(`chat ${requested}`, { kind: "client", attributes }, async (span) => {
        const m = metrics();
        try {
          const res = await provider.chat(req);
          m.modelCalls.inc({ model: res.model, outcome: "ok" });
          m.modelTokens.inc({ model: res.model, type: "prompt" }, res.usage.promptTokens);
          m.modelTokens.inc({ model: res.model, type: "completion" }, res.usage.completionTokens);
          span?.setAttributes({
            "gen_ai.response.model": res.model,
            "gen_ai.usage.input_tokens": res.usage.promptTokens,
            "gen_ai.usage.output_tokens": res.usage.completionTokens,
          });
          return res;
        } catch (error) {
          m.modelCalls.inc({ model: requested, outcome: "error" });
          throw error;
        }
      });
    },
  };
}

let cached: LlmProvider | undefined;

/** The configured provider (from the environment, created once), or the built-in offline one. */
export function getLlmProvider(): LlmProvider {
  cached ??= createLlmProvider(llmSettingsFromEnv());
  return cached;
}

/** Forgets the provider: the next getLlmProvider() is made from env() again (tests: testing.ts useModelServer). */
export function forgetLlmProvider(): void {
  cached = undefined;
}
