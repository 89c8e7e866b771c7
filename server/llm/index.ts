/**
 * Language-model providers. `getLlmProvider()` is the one entry point: the configured OpenAI-compatible provider,
 * or the built-in offline one when nothing is configured. A configured provider that fails makes the caller fail;
 * the offline provider is never a silent fallback.
 */
import { env, type Env } from "../core/env";
import { createOfflineProvider, OFFLINE_MODEL } from "./offline";
import { createOpenAiProvider } from "./openai";
import { metrics } from "../telemetry/metrics";
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

/** Counts every call and the tokens its answer reports (flowbench_model_calls_total, flowbench_model_tokens_total). */
function counted(provider: LlmProvider, defaultModel: string): LlmProvider {
  return {
    ...provider,
    async chat(req) {
      const m = metrics();
      try {
        const res = await provider.chat(req);
        m.modelCalls.inc({ model: res.model, outcome: "ok" });
        m.modelTokens.inc({ model: res.model, type: "prompt" }, res.usage.promptTokens);
        m.modelTokens.inc({ model: res.model, type: "completion" }, res.usage.completionTokens);
        return res;
      } catch (error) {
        m.modelCalls.inc({ model: req.model ?? (provider.offline ? OFFLINE_MODEL : defaultModel), outcome: "error" });
        throw error;
      }
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
