/**
 * A local OpenAI-compatible server (node:http, POST /v1/chat/completions) for tests and benchmarks: the real
 * `openai` client talks to it over real HTTP. Not part of the public API.
 *
 * By default it answers `echo: <last user message>` with usage numbers. `script` queues one-off replies (429 with
 * Retry-After, 500s, slow answers) taken in order before the default applies; `delayMs` delays every answer.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeReply =
  | { kind: "ok"; text?: string; delayMs?: number }
  | { kind: "error"; status: number; headers?: Record<string, string>; message?: string; delayMs?: number }
  | { kind: "hang" };

export type FakeRequest = { body: { model?: string; messages?: Array<{ role: string; content: string }>; temperature?: number; max_tokens?: number }; headers: http.IncomingHttpHeaders; at: number };

export type FakeLlmServer = {
  /** Base URL to use as OPENAI_BASE_URL (ends with /v1). */
  url: string;
  requests: FakeRequest[];
  /** Requests whose connection closed before an answer was sent (the client aborted). */
  aborted: number;
  script: FakeReply[];
  delayMs: number;
  close(): Promise<void>;
};

export async function startFakeLlmServer(opts: { delayMs?: number; script?: FakeReply[] } = {}): Promise<FakeLlmServer> {
  const state: FakeLlmServer = {
    url: "",
    requests: [],
    aborted: 0,
    script: [...(opts.script ?? [])],
    delayMs: opts.delayMs ?? 0,
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      let body: FakeRequest["body"] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as FakeRequest["body"];
      } catch {
        /* answered below with what we have */
      }
      state.requests.push({ body, headers: req.headers, at: Date.now() });
      const reply: FakeReply = state.script.shift() ?? { kind: "ok" };
      let answered = false;
      res.on("close", () => {
        if (!answered) state.aborted++;
      });
      if (reply.kind === "hang") return;
      const send = () => {
        if (res.destroyed) return;
        answered = true;
        if (reply.kind === "error") {
          res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
          res.end(JSON.stringify({ error: { message: reply.message ?? `fake error ${reply.status}`, type: "fake" } }));
          return;
        }
        const last = [...(body.messages ?? [])].reverse().find((m) => m.role === "user")?.content ?? "";
        const text = reply.text ?? `echo: ${last}`;
        const prompt = (body.messages ?? []).reduce((n, m) => n + Math.ceil(String(m.content).length / 4), 0);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${state.requests.length}`,
            object: "chat.completion",
            created: Math.floor(Date.now() / 1000),
            model: body.model ?? "fake-model",
            choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
            usage: { prompt_tokens: prompt, completion_tokens: Math.ceil(text.length / 4), total_tokens: prompt + Math.ceil(text.length / 4) },
          }),
        );
      };
      const delay = (reply.delayMs ?? 0) + state.delayMs;
      if (delay > 0) setTimeout(send, delay);
      else send();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
