import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client";
import type { FakeLlmServer } from "../../llm/testing";
import { clearMemoryScope } from "../executor";
import { createRunHarness, start, wf, type RunHarness, type WebhookServer } from "../testing";

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

describe("memory nodes: round trip and scopes", () => {
  it("memory round trip: save (data templates, extractFrom) merges; a later run loads selected fields", async () => {
    const saver = wf(
      [
        start([
          { name: "query", type: "string", required: true },
          { name: "sessionId", type: "string", default: "" },
        ]),
        { id: "llm_1", type: "llm", config: { userPrompt: "{{start.query}}" } },
        {
          id: "save_1",
          type: "memory_save",
          config: { agent_id: "support-bot", data: { last_question: "{{start.query}}", turn: "{{start.sessionId}}" } },
        },
        { id: "save_2", type: "memory_save", config: { agent_id: "support-bot", extractFrom: "llm_1.result" } },
        { id: "end", type: "end", config: { output: "saved" } },
      ],
      [
        ["start", "llm_1"],
        ["llm_1", "save_1"],
        ["save_1", "save_2"],
        ["save_2", "end"],
      ],
    );
    // online (chat): the agent's production memory
    const saved = await run(saver, { query: "I like tofu" }, { sessionId: "s-42", source: "chat" });
    expect(saved.status).toBe("succeeded");
    expect(saved.steps.find((s) => s.nodeId === "save_2")?.output).toMatchObject({
      saved: true,
      result: { last_question: "I like tofu", turn: "s-42" },
    });

    const loader = wf(
      [
        start([{ name: "sessionId", type: "string", required: true }]),
        {
          id: "load_1",
          type: "memory_load",
          config: { agent_id: "support-bot", fields: ["last_question", "result", "missing"] },
        },
        { id: "load_2", type: "memory_load", config: { agent_id: "support-bot", key: "someone-else" } },
        {
          id: "end",
          type: "end",
          config: {
            output: "{{load_1.result.last_question}}",
            payload: { memory: "{{load_1.result}}", found: "{{load_1.found}}", other: "{{load_2.found}}" },
          },
        },
      ],
      [
        ["start", "load_1"],
        ["load_1", "load_2"],
        ["load_2", "end"],
      ],
    );
    const loaded = await run(loader, { sessionId: "s-42" }, { source: "chat" });
    expect(loaded.answer).toBe("I like tofu");
    expect(loaded.payload).toMatchObject({
      found: true,
      other: false,
      memory: { last_question: "I like tofu", result: expect.stringContaining("I like tofu") },
    });
    expect(Object.keys(loaded.payload?.memory as object).sort()).toEqual(["last_question", "result"]);
    const row = await db.agentMemory.findFirstOrThrow({ where: { agentId, key: "support-bot/s-42" } });
    expect(row.memoryType).toBe("conversation");

    // A real agent id shares that agent's memory; without any agent a label is an error.
    const byId = wf(
      [
        start([{ name: "sessionId", type: "string" }]),
        { id: "load", type: "memory_load", config: { agent_id: agentId, key: "support-bot/s-42" } },
        { id: "end", type: "end", config: { output: "{{load.found}}" } },
      ],
      [
        ["start", "load"],
        ["load", "end"],
      ],
    );
    expect((await run(byId, {}, { agentId: undefined, source: "api" })).answer).toBe("true");
    expect((await run(loader, { sessionId: "s-42" }, { agentId: undefined, source: "chat" })).error).toMatchObject({
      code: "MEMORY_AGENT_UNKNOWN",
      nodeId: "load_1",
    });
  });

  it("memory is scoped by source: evaluations and test runs start empty and never touch the production memory", async () => {
    const nodes = (save: boolean) =>
      wf(
        [
          start([
            { name: "query", type: "string", required: true },
            { name: "sessionId", type: "string", default: "" },
          ]),
          { id: "load", type: "memory_load", config: { agent_id: "prefs", key: "u-1" } },
          ...(save
            ? [
                {
                  id: "save",
                  type: "memory_save",
                  config: { agent_id: "prefs", key: "u-1", data: { likes: "{{start.query}}" } },
                },
              ]
            : []),
          { id: "end", type: "end", config: { output: "{{load.result.likes}}|{{load.found}}" } },
        ],
        save
          ? [
              ["start", "load"],
              ["load", "save"],
              ["save", "end"],
            ]
          : [
              ["start", "load"],
              ["load", "end"],
            ],
      );
    const production = () =>
      db.agentMemory.findMany({ where: { agentId, key: "prefs/u-1" }, orderBy: { scope: "asc" } });
    // online users' memory
    await run(nodes(true), { query: "tofu" }, { source: "chat" });
    expect((await production()).map((r) => [r.scope, r.data])).toEqual([["", { likes: "tofu" }]]);
    // a test run does not see it and its own writes vanish with it
    const test = await run(nodes(true), { query: "pork" }, { source: "test_run" });
    expect(test.answer).toBe("|false");
    expect(test.steps.find((s) => s.nodeId === "save")?.input).toMatchObject({ scope: `test_run:${test.traceId}` });
    // an evaluation item: one scope for all its turns, empty at the start
    const turn1 = await run(nodes(true), { query: "beef" }, { source: "eval", memoryScope: "eval-item:x:1" });
    const turn2 = await run(nodes(false), { query: "?" }, { source: "eval", memoryScope: "eval-item:x:1" });
    expect([turn1.answer, turn2.answer]).toEqual(["|false", "beef|true"]);
    // the production memory is exactly what the chat wrote; the eval scope is separate; the test run left nothing
    expect((await production()).map((r) => [r.scope, r.data])).toEqual([
      ["", { likes: "tofu" }],
      ["eval-item:x:1", { likes: "beef" }],
    ]);
    expect(await clearMemoryScope(db, "eval-item:x:1")).toBe(1);
    expect(await clearMemoryScope(db, "")).toBe(0); // never production
    expect((await run(nodes(false), { query: "?" }, { source: "chat" })).answer).toBe("tofu|true");
  });
});
