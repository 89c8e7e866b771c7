import { describe, expect, it } from "vitest";
import { costOf, mergeTokens, modelPricesEnvProblem, ModelPrices } from "./prices";
import { parseEnv } from "./env";

const usd = (model: string, p: number, c: number) => ({
  model,
  promptPerMillion: p,
  completionPerMillion: c,
  currency: "USD",
});

describe("costOf: tokens x price per million", () => {
  it("prices answering and judging apart (hand-computed: 1.2M x 0.15 + 0.3M x 0.6 = 0.36; 0.5M x 0.15 + 0.1M x 0.6 = 0.135)", () => {
    const cost = costOf(
      {
        answering: [{ model: "gpt-4o-mini", promptTokens: 1_200_000, completionTokens: 300_000 }],
        judging: [{ model: "gpt-4o-mini", promptTokens: 500_000, completionTokens: 100_000 }],
      },
      [usd("gpt-4o-mini", 0.15, 0.6)],
    );
    expect(cost).toEqual({
      currency: "USD",
      answering: 0.36,
      judging: 0.135,
      total: 0.495,
      byCurrency: [{ currency: "USD", answering: 0.36, judging: 0.135, total: 0.495 }],
      missingPrices: [],
    });
  });

  it("names models without a price and states no total (never 0 for unpriced tokens)", () => {
    const cost = costOf(
      {
        answering: [
          { model: "gpt-x", promptTokens: 10, completionTokens: 5 },
          { model: "offline", promptTokens: 1_000_000, completionTokens: 0 },
        ],
        judging: [],
      },
      [usd("offline", 1, 1)],
    );
    expect(cost.missingPrices).toEqual(["gpt-x"]);
    expect(cost.total).toBeNull();
    expect(cost.currency).toBeNull();
    expect(cost.byCurrency).toEqual([{ currency: "USD", answering: 1, judging: 0, total: 1 }]);
  });

  it("sums mixed currencies per currency and never converts", () => {
    const cost = costOf(
      {
        answering: [{ model: "a", promptTokens: 1_000_000, completionTokens: 0 }],
        judging: [{ model: "b", promptTokens: 0, completionTokens: 2_000_000 }],
      },
      [usd("a", 2, 0), { model: "b", promptPerMillion: 0, completionPerMillion: 3, currency: "EUR" }],
    );
    expect(cost.total).toBeNull();
    expect(cost.byCurrency).toEqual([
      { currency: "EUR", answering: 0, judging: 6, total: 6 },
      { currency: "USD", answering: 2, judging: 0, total: 2 },
    ]);
    expect(cost.missingPrices).toEqual([]);
  });

  it("no tokens cost 0 in the table's currency; a model with zero tokens needs no price", () => {
    const cost = costOf({ answering: [{ model: "gpt-x", promptTokens: 0, completionTokens: 0 }], judging: [] }, [
      usd("a", 1, 1),
    ]);
    expect(cost).toMatchObject({ currency: "USD", answering: 0, judging: 0, total: 0, missingPrices: [] });
    expect(costOf({ answering: [], judging: [] }, []).currency).toBeNull();
  });

  it("merges token lists by model", () => {
    expect(
      mergeTokens(
        [{ model: "b", promptTokens: 1, completionTokens: 2 }],
        [
          { model: "a", promptTokens: 3, completionTokens: 4 },
          { model: "b", promptTokens: 5, completionTokens: 6 },
        ],
      ),
    ).toEqual([
      { model: "a", promptTokens: 3, completionTokens: 4 },
      { model: "b", promptTokens: 6, completionTokens: 8 },
    ]);
  });
});

describe("the price table's grammar", () => {
  it("rejects negative prices, bad currencies and a model listed twice; upper-cases the currency", () => {
    expect(ModelPrices.safeParse([{ ...usd("a", -1, 0) }]).success).toBe(false);
    expect(ModelPrices.safeParse([{ ...usd("a", 1, 0), currency: "dollars" }]).success).toBe(false);
    expect(ModelPrices.safeParse([usd("a", 1, 0), usd("a", 2, 0)]).success).toBe(false);
    expect(ModelPrices.parse([{ ...usd("a", 1, 0), currency: "eur" }])[0]?.currency).toBe("EUR");
  });

  it("FLOWBENCH_MODEL_PRICES: invalid JSON or shape stops start-up with a message naming the variable", () => {
    expect(modelPricesEnvProblem(undefined)).toBeNull();
    expect(modelPricesEnvProblem(JSON.stringify([usd("gpt-4o-mini", 0.15, 0.6)]))).toBeNull();
    expect(() => parseEnv({ FLOWBENCH_MODEL_PRICES: "[{model:" })).toThrow(
      /FLOWBENCH_MODEL_PRICES: must be a JSON array/,
    );
    expect(() => parseEnv({ FLOWBENCH_MODEL_PRICES: '[{"model":"a"}]' })).toThrow(
      /FLOWBENCH_MODEL_PRICES: \[0\.promptPerMillion\]/,
    );
    expect(parseEnv({ FLOWBENCH_MODEL_PRICES: "[]" }).FLOWBENCH_MODEL_PRICES).toBe("[]");
  });
});
