import { useModelServer } from "../../llm/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../db/generated/client";
import type { DatabaseTarget } from "../../db/url";
import { createEvalTestDb, questions, seedAgent, seedSet, startModelServer, type ModelServer } from "../testing";
import { EvalQueue } from "../runs/queue";
import { registerEvalQueue } from "../runs/worker";
import {
  createRun,
  getItem,
  getRun,
  listItems,
  modelPrices,
  runReport,
  setModelPrices,
  startRun,
  usage,
} from "../index";

/**
 * Tokens become money: an in-platform run answered by the local OpenAI-compatible server (20 prompt + 10 completion
 * tokens per call, model gpt-4o-mini: the provider's default OPENAI_MODEL, echoed by the server) and judged by the LLM
 * judge; the price table set through the service the faces call.
 */
async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("cost: the model price table turns stored tokens into money (local model server, PGlite)", () => {
  let db: PrismaClient;
  let target: DatabaseTarget;
  let close: () => Promise<void>;
  let model: ModelServer;
  let agentId: string;
  let queue: EvalQueue;

  let restoreEnv: () => void = () => undefined;
  beforeAll(async () => {
    model = await startModelServer();
    restoreEnv = useModelServer(model.url);
    ({ db, target, close } = await createEvalTestDb());
    agentId = (await seedAgent(db, "Cost agent")).id;
    queue = await EvalQueue.start({ db, target, worker: true, pollMs: 100, log: () => undefined });
    registerEvalQueue(queue);
  }, 60_000);
  afterAll(async () => {
    await queue.stop().catch(() => undefined);
    registerEvalQueue(undefined);
    await close();
    await model.close();
    restoreEnv();
  });

  it("per run (answering and judging apart), per item and per day; a model without a price is named, never 0", async () => {
    const { setVersionId } = await seedSet(db, { agentId, samples: questions(2, { prefix: "c" }), threshold: 1 });
    const run = await createRun(db, { setVersionId, mode: "in_platform", tier: "invoke" }, null);
    await startRun(db, run.id);
    await waitFor("the run to finish answering", async () => (await getRun(db, run.id)).status === "awaiting_review");

    expect(await modelPrices(db)).toEqual({ prices: [], source: "settings" }); // empty by default
    const unpriced = await runReport(db, run.id);
    expect(unpriced.tokens.answering).toMatchObject({ promptTokens: 40, completionTokens: 20 });
    expect(unpriced.cost).toEqual({
      currency: null,
      answering: null,
      judging: null,
      total: null,
      byCurrency: [],
      missingPrices: ["gpt-4o-mini"],
    });

    const stored = await setModelPrices(db, {
      prices: [{ model: "gpt-4o-mini", promptPerMillion: 1000, completionPerMillion: 2000, currency: "usd" }],
    });
    expect(stored).toEqual({
      prices: [{ model: "gpt-4o-mini", promptPerMillion: 1000, completionPerMillion: 2000, currency: "USD" }],
      source: "settings",
    });
    // 2 answers and 2 judge calls of 20 + 10 tokens: (40 x 1000 + 20 x 2000) / 1e6 = 0.08 on each side
    const priced = await runReport(db, run.id);
    expect(priced.cost).toMatchObject({
      currency: "USD",
      answering: 0.08,
      judging: 0.08,
      total: 0.16,
      missingPrices: [],
    });

    const item = (await listItems(db, run.id, {})).items[0]!;
    expect((await getItem(db, run.id, item.id)).cost).toMatchObject({
      currency: "USD",
      answering: 0.04,
      judging: 0.04,
      total: 0.08,
    });

    const u = await usage(db, { agentId });
    expect(u.days).toHaveLength(1);
    expect(u.days[0]!.cost).toMatchObject({ currency: "USD", answering: 0.08, judging: 0.08, total: 0.16 });
    expect(u.totals.cost).toMatchObject({ currency: "USD", total: 0.16 });

    // an item stored before tokens were kept by model counts under `unrecorded`
    await db.$executeRaw`UPDATE "EvalRunItem" SET "answerUsage" = NULL WHERE "id" = ${item.id}`;
    const legacy = await runReport(db, run.id);
    expect(legacy.cost).toMatchObject({ total: null, missingPrices: ["unrecorded"] });
    expect(legacy.cost.byCurrency).toEqual([{ currency: "USD", answering: 0.04, judging: 0.08, total: 0.12 }]);

    // replacing the table: the report follows the table as it is when read
    await setModelPrices(db, { prices: [] });
    expect((await runReport(db, run.id)).cost.missingPrices).toEqual(["gpt-4o-mini", "unrecorded"]);
    await expect(
      setModelPrices(db, {
        prices: [
          { model: "m", promptPerMillion: 1, completionPerMillion: 1, currency: "USD" },
          { model: "m", promptPerMillion: 2, completionPerMillion: 1, currency: "USD" },
        ],
      }),
    ).rejects.toMatchObject({ status: 400, code: "REQUEST_INVALID" });
  }, 120_000);
});
