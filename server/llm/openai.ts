/**
 * An OpenAI-compatible chat-completions provider through the official `openai` package (any server that speaks
 * POST {base}/chat/completions: OpenAI, Azure-style gateways, vLLM, Ollama, LiteLLM, ...).
 *
 * Retries are the SDK's own (bounded: `maxRetries`, default 2, i.e. 3 attempts): 408/409/429/5xx, timeouts and
 * connection errors, exponential backoff with jitter (0.5 s, 1 s, ... max 8 s), honouring `Retry-After` /
 * `retry-after-ms` up to 60 s. The caller's AbortSignal cancels both the in-flight request and a retry wait.
 * Failures come out as LlmError with a stable code; an abort comes out as the signal's reason.
 */
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  PermissionDeniedError,
  RateLimitError,
} from "openai";
import { LlmError } from "./errors";
import type { LlmProvider, LlmRequest, LlmResponse, LlmSettings } from "./types";

function mapError(e: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason ?? e;
  if (e instanceof APIUserAbortError) return e;
  if (e instanceof APIConnectionTimeoutError)
    return new LlmError("LLM_TIMEOUT", "The model did not answer in time (after retries)", undefined, { cause: e });
  if (e instanceof APIConnectionError)
    return new LlmError("LLM_UNAVAILABLE", `The model provider could not be reached: ${e.message}`, undefined, {
      cause: e,
    });
  if (e instanceof RateLimitError)
    return new LlmError(
      "LLM_RATE_LIMITED",
      `The model provider is rate limiting (429 after retries): ${e.message}`,
      429,
      { cause: e },
    );
  if (e instanceof AuthenticationError || e instanceof PermissionDeniedError) {
    return new LlmError(
      "LLM_AUTH_FAILED",
      `The model provider refused the credentials (${e.status}): ${e.message}`,
      e.status,
      { cause: e },
    );
  }
  if (e instanceof APIError) {
    const status = typeof e.status === "number" ? e.status : undefined;
    if (status !== undefined && status >= 500)
      return new LlmError(
        "LLM_UNAVAILABLE",
        `The model provider failed (${status} after retries): ${e.message}`,
        status,
        { cause: e },
      );
    if (status === 408)
      return new LlmError("LLM_TIMEOUT", `The model provider timed out (408 after retries)`, status, { cause: e });
    return new LlmError(
      "LLM_REQUEST_REJECTED",
      `The model provider rejected the request (${status ?? "no status"}): ${e.message}`,
      status,
      { cause: e },
    );
  }
  return e;
}

export function createOpenAiProvider(settings: LlmSettings): LlmProvider {
  const client = new OpenAI({
    baseURL: settings.baseUrl ?? "https://api.openai.com/v1",
    // Local OpenAI-compatible servers usually need no key; the SDK insists on one, so send a placeholder.
    apiKey: settings.apiKey ?? "not-needed",
    maxRetries: settings.maxRetries,
    timeout: settings.timeoutMs,
  });
  return {
    name: settings.baseUrl ? "openai-compatible" : "openai",
    offline: false,
    async chat(req: LlmRequest): Promise<LlmResponse> {
      const model = req.model ?? settings.model;
      let completion: OpenAI.Chat.Completions.ChatCompletion;
      try {
        completion = await client.chat.completions.create(
          {
            model,
            messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
            ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
            ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
          },
          { signal: req.signal },
        );
      } catch (e) {
        throw mapError(e, req.signal);
      }
      const choice = completion.choices?.[0];
      if (!choice?.message) throw new LlmError("LLM_BAD_RESPONSE", "The model answered without a message");
      return {
        text: choice.message.content ?? "",
        usage: {
          promptTokens: completion.usage?.prompt_tokens ?? 0,
          completionTokens: completion.usage?.completion_tokens ?? 0,
        },
        model: completion.model || model,
      };
    },
  };
}
