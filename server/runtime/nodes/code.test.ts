import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client";
import type { FakeLlmServer } from "../../llm/testing";
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

describe("the code node", () => {
  it("code node: inputs rendered (structured), result and stdout exposed; sandbox errors keep their code", async () => {
    const w = (code: string) =>
      wf(
        [
          start(),
          { id: "code_1", type: "code", config: { code, inputs: { text: "{{start.query}}" } } },
          {
            id: "end",
            type: "end",
            config: {
              output: "{{code_1.result.upper}}",
              payload: { out: "{{code_1.result}}", stdout: "{{code_1.stdout}}" },
            },
          },
        ],
        [
          ["start", "code_1"],
          ["code_1", "end"],
        ],
      );
    const ok = await run(w("result = inputs['text'].upper()"), { query: "tofu" });
    expect(ok.answer).toBe("TOFU");
    expect(ok.payload).toEqual({ out: { upper: "TOFU", keys: ["text"] }, stdout: "printed\n" });
    const failed = await run(w("raise ValueError('boom')"), { query: "tofu" });
    expect(failed.error).toMatchObject({ code: "PYTHON_ERROR", nodeId: "code_1" });
    const unavailable = await run(
      w("result = 1"),
      { query: "x" },
      {},
      deps({ sandbox: async () => Promise.reject(new Error("no pyodide")) }),
    );
    expect(unavailable.error?.code).toBe("SANDBOX_UNAVAILABLE");
  });
});
