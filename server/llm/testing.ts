/**
 * A local OpenAI-compatible server (node:http, POST /v1/chat/completions) for tests and benchmarks: the real
 * `openai` client talks to it over real HTTP. Not part of the public API.
 *
 * By default it answers `echo: <last user message>` with usage numbers. `script` queues one-off replies (429 with
 * Retry-After, 500s, slow answers) taken in order before the default applies; `delayMs` delays every answer (it is
 * read per request, so a test may change it). `respond` computes the default answer's text; `onRequest` and
 * `onAnswer` observe arrivals and delivered answers (the evaluation tests count and log with them).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { forgetEnv } from "../core/env";
import { forgetLlmProvider } from "./index";

export type FakeReply =
  | { kind: "ok"; text?: string; delayMs?: number }
  | { kind: "error"; status: number; headers?: Record<string, string>; message?: string; delayMs?: number }
  | { kind: "hang" };

export type FakeRequest = {
  body: {
    model?: string;
    messages?: Array<{ role: string; content: string }>;
    temperature?: number;
    max_tokens?: number;
  };
  headers: http.IncomingHttpHeaders;
  at: number;
};

export type FakeLlmServer = {
  /** Base URL to use as OPENAI_BASE_URL (ends with /v1). */
  url: string;
  requests: FakeRequest[];
  /** Requests whose connection closed before an answer was sent (the client aborted). */
  aborted: number;
  script: FakeReply[];
  delayMs: number;
  /** Requests being answered now, and the most at once (tests of bounded concurrency reset it to 0). */
  inflight: number;
  maxInflight: number;
  close(): Promise<void>;
};

export type FakeLlmOptions = {
  delayMs?: number;
  script?: FakeReply[];
  respond?: (req: FakeRequest) => string;
  onRequest?: (req: FakeRequest) => void;
  onAnswer?: (req: FakeRequest, text: string) => void;
  /** Token usage to report; default: about one token per four characters. */
  usage?: (req: FakeRequest, text: string) => { prompt: number; completion: number };
};

export async function startFakeLlmServer(opts: FakeLlmOptions = {}): Promise<FakeLlmServer> {
  const state: FakeLlmServer = {
    url: "",
    requests: [],
    aborted: 0,
    script: [...(opts.script ?? [])],
    delayMs: opts.delayMs ?? 0,
    inflight: 0,
    maxInflight: 0,
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res
          .writeHead(404, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      let body: FakeRequest["body"] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as FakeRequest["body"];
      } catch {
        /* answered below with what we have */
      }
      const request: FakeRequest = { body, headers: req.headers, at: Date.now() };
      state.requests.push(request);
      opts.onRequest?.(request);
      const reply: FakeReply = state.script.shift() ?? { kind: "ok" };
      let answered = false;
      state.inflight++;
      state.maxInflight = Math.max(state.maxInflight, state.inflight);
      res.on("close", () => {
        if (!answered) {
          state.aborted++;
          state.inflight--;
        }
      });
      if (reply.kind === "hang") return;
      const send = () => {
        if (res.destroyed) return;
        answered = true;
        state.inflight--;
        if (reply.kind === "error") {
          res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
          res.end(JSON.stringify({ error: { message: reply.message ?? `fake error ${reply.status}`, type: "fake" } }));
          return;
        }
        const last = [...(body.messages ?? [])].reverse().find((m) => m.role === "user")?.content ?? "";
        const text = reply.text ?? opts.respond?.(request) ?? `echo: ${last}`;
        opts.onAnswer?.(request, text);
        const counted = opts.usage?.(request, text) ?? {
          prompt: (body.messages ?? []).reduce((n, m) => n + Math.ceil(String(m.content).length / 4), 0),
          completion: Math.ceil(text.length / 4),
        };
        const prompt = counted.prompt;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${state.requests.length}`,
            object: "chat.completion",
            created: Math.floor(Date.now() / 1000),
            model: body.model ?? "fake-model",
            choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
            usage: {
              prompt_tokens: prompt,
              completion_tokens: counted.completion,
              total_tokens: prompt + counted.completion,
            },
          }),
        );
      };
      const delay = (reply.delayMs ?? 0) + state.delayMs;
      if (delay > 0) setTimeout(send, delay);
      else send();
    });
  });
  // Long keep-alive like a real provider: clients reuse sockets; a short server timeout races their reuse.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/**
 * Makes `url` the app's model provider, as an operator would (OPENAI_BASE_URL and a key), until the returned function
 * puts the environment back as it was. env() and the provider are read once per module instance and unit test files
 * share their worker's modules (vitest.config.ts), so both are forgotten on the way in and on the way out: the next
 * file in the worker sees the environment it started with.
 */
export function useModelServer(url: string): () => void {
  const names = ["OPENAI_BASE_URL", "OPENAI_API_KEY"] as const;
  const before = names.map((name) => [name, process.env[name]] as const);
  process.env.OPENAI_BASE_URL = url;
  process.env.OPENAI_API_KEY = "sk-local-test";
  forgetEnv();
  forgetLlmProvider();
  return () => {
    for (const [name, value] of before) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    forgetEnv();
    forgetLlmProvider();
  };
}
