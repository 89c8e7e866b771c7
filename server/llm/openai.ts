/**
 * An OpenAI-compatible chat-completions provider through the official `openai` package (any server that speaks
 * POST {base}/chat/completions: OpenAI, Azure-style gateways, vLLM, Ollama, LiteLLM, ...).
 *
 * Retries are the SDK's own (bounded: `maxRetries`, default 2, i.e. 3 attempts): 408/409/429/5xx, timeouts and
 * connection errors, exponential backoff with jitter (0.5 s, 1 s, ... max 8 s), honouring `Retry-After` /
 * `retry-after-ms` up to 60 s. The caller's AbortSignal cancels both the in-flight request and a retry wait.
 * Failures come out as LlmError with a stable code; an abort comes out as the signal's reason.
 *
 * Every request carries an `Idempotency-Key` header (idempotencyKeyFor), the same on the SDK's retries of the call
 * and, for a call given an `idempotencyScope`, on the same call made again later (an evaluation item answered again
 * after its instance died). Providers that honour the header answer a repeated key once; the others ignore it.
 */
import { createHash, randomUUID } from "node:crypto";
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

/**
 * The `Idempotency-Key` of a call: with a scope, a digest of the scope and the request body (the same call with the
 * same request sends the same key on every attempt; a retake whose request differs, say an http node answered
 * differently, sends another key, so a provider never sees one key with two bodies); without one, a key of the
 * call's own (the SDK resends it on its retries, which reuse the request options).
 */
export function idempotencyKeyFor(scope: string | undefined, body: unknown): string {
  if (scope === undefined) return `flowbench-${randomUUID()}`;
  const digest = createHash("sha256").update(scope).update("\n").update(JSON.stringify(body)).digest("hex");
  return `flowbench-${digest.slice(0, 48)}`;
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
      const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
        model,
        messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
        ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
        ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
      };
      try {
        completion = await client.chat.completions.create(body, {
          signal: req.signal,
          headers: { "Idempotency-Key": idempotencyKeyFor(req.idempotencyScope, body) },
        });
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
