/** The language-model interface the runtime (and the evaluation center's judge) talks to. */
export type ChatTurn = { role: "user" | "assistant" | "system"; content: string };

export type LlmUsage = { promptTokens: number; completionTokens: number };

export type LlmRequest = {
  messages: ChatTurn[];
  /** Defaults to the provider's configured model (OPENAI_MODEL). */
  model?: string;
  temperature?: number;
  maxTokens?: number;
  /** Aborts the in-flight request (and any retry wait). */
  signal?: AbortSignal;
  /**
   * What makes this call the same call when it is made again (an evaluation item answered again after its instance
   * died: run, item, turn and node). The provider derives the `Idempotency-Key` header from it and the request body,
   * so a repeated call with the same request sends the same key; without it each call gets a key of its own (kept
   * across the SDK's own retries). See idempotencyKeyFor in openai.ts.
   */
  idempotencyScope?: string;
};

export type LlmResponse = { text: string; usage: LlmUsage; model: string };

export type LlmProvider = {
  /** Recorded in traces: "offline", "openai" (api.openai.com) or "openai-compatible" (OPENAI_BASE_URL). */
  name: string;
  /** True only for the built-in offline provider. */
  offline: boolean;
  chat(req: LlmRequest): Promise<LlmResponse>;
};

/** Provider settings, normally from the environment (OPENAI_*). */
export type LlmSettings = {
  baseUrl?: string;
  apiKey?: string;
  /** Default model when a node names none. */
  model: string;
  /** Time limit of one attempt, in milliseconds. */
  timeoutMs: number;
  /** Retries after the first attempt (429, 408/409, 5xx, timeouts, connection errors). */
  maxRetries: number;
};
