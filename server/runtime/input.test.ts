import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/client";
import type { FakeLlmServer } from "../llm/testing";
import { inputFromMessage } from ".";
import { createRunHarness, minimal, start, wf, type RunHarness, type WebhookServer } from "./testing";

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

describe("start inputs: a message mapped, defaults, required, types, the conversation", () => {
  it("maps a message onto the start's declared outputs", () => {
    expect(inputFromMessage(minimal(), "hi")).toEqual({ query: "hi" });
    const other = wf(
      [
        start([
          { name: "locale", type: "string" },
          { name: "question", type: "string" },
        ]),
        { id: "end", type: "end" },
      ],
      [["start", "end"]],
    );
    expect(inputFromMessage(other, "hi")).toEqual({ question: "hi" });
    const first = wf(
      [
        start([
          { name: "n", type: "number" },
          { name: "prompt", type: "string" },
        ]),
        { id: "end", type: "end" },
      ],
      [["start", "end"]],
    );
    expect(inputFromMessage(first, "hi")).toEqual({ prompt: "hi" });
  });

  it("applies defaults, enforces required inputs and declared types", async () => {
    const w = wf(
      [
        start(
          [
            { name: "query", type: "string", required: true, default: "" },
            { name: "limit", type: "integer", default: 3 },
            { name: "locale", type: "string", required: true, default: "en" },
          ],
          { brand: "Flowbench" },
        ),
        {
          id: "end",
          type: "end",
          config: { output: "{{start.query}}|{{start.limit}}|{{start.locale}}|{{start.brand}}" },
        },
      ],
      [["start", "end"]],
    );
    expect((await run(w, { query: "q" })).answer).toBe("q|3|en|Flowbench");
    const missing = await run(w, {});
    expect(missing).toMatchObject({
      status: "failed",
      answer: null,
      error: { code: "INPUT_REQUIRED", nodeId: "start" },
    });
    expect(missing.error?.message).toMatch(/query/);
    expect((await run(w, { query: "   " })).error?.code).toBe("INPUT_REQUIRED");
    expect((await run(w, { query: "q", limit: "3" })).error?.code).toBe("INPUT_INVALID_TYPE");
    expect((await run(w, { query: "q", limit: 2.5 })).error?.code).toBe("INPUT_INVALID_TYPE");
    const trace = await db.trace.findUniqueOrThrow({ where: { id: missing.traceId } });
    expect(trace.status).toBe("failed");
    expect(trace.error).toMatchObject({ code: "INPUT_REQUIRED", nodeId: "start" });
  });

  it("a start output named history receives the earlier turns (string transcript or array), unless the caller passes it", async () => {
    const workflow = wf(
      [
        start([
          { name: "query", type: "string", required: true, default: "" },
          { name: "history", type: "string", default: "" },
          { name: "turns", type: "array" },
        ]),
        { id: "end", type: "end", config: { output: "{{start.history}}", payload: { turns: "{{start.turns}}" } } },
      ],
      [["start", "end"]],
    );
    const history = [
      { role: "user" as const, content: "breakfast please" },
      { role: "assistant" as const, content: "Try the congee." },
    ];
    const res = await run(workflow, { query: "and a drink?" }, { history });
    expect(res.status).toBe("succeeded");
    expect(res.answer).toBe("user: breakfast please\nassistant: Try the congee.");
    expect(res.payload).toEqual({ turns: null }); // only the declared name `history` is a run fact
    const arrayWf = wf(
      [
        start([
          { name: "query", type: "string", required: true, default: "" },
          { name: "history", type: "array" },
        ]),
        { id: "end", type: "end", config: { output: "x", payload: { h: "{{start.history}}" } } },
      ],
      [["start", "end"]],
    );
    expect((await run(arrayWf, { query: "q" }, { history })).payload).toEqual({ h: history });
    expect((await run(workflow, { query: "q", history: "given" }, { history })).answer).toBe("given");
    expect((await run(workflow, { query: "q" })).answer).toBe("");
  });
});
