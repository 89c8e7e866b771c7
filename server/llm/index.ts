/**
 * Language-model providers. `getLlmProvider()` is the one entry point: the configured OpenAI-compatible provider,
 * or the built-in offline one when nothing is configured. A configured provider that fails makes the caller fail;
 * the offline provider is never a silent fallback.
 */
import { env, type Env } from "../core/env";
import { createOfflineProvider } from "./offline";
import { createOpenAiProvider } from "./openai";
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

/** The provider for these settings: OpenAI-compatible when configured, otherwise offline. */
export function createLlmProvider(settings: LlmSettings): LlmProvider {
  return isLlmConfigured(settings) ? createOpenAiProvider(settings) : createOfflineProvider();
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
