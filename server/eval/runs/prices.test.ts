import { describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client";

/** FLOWBENCH_MODEL_PRICES wins over the stored table: the table is the environment's and cannot be edited. */
const PRICES = [{ model: "offline", promptPerMillion: 0.5, completionPerMillion: 1, currency: "EUR" }];
vi.mock("../../core/env", async (orig) => {
  const real = await orig<typeof import("../../core/env")>();
  const parsed = real.parseEnv({ FLOWBENCH_MODEL_PRICES: JSON.stringify(PRICES) });
  return { ...real, env: () => parsed };
});
const { modelPrices, setModelPrices } = await import("./prices");

describe("the price table from FLOWBENCH_MODEL_PRICES", () => {
  const db = {
    modelPrice: {
      findMany: () => {
        throw new Error("the stored table is not read while the environment sets it");
      },
    },
  } as unknown as Db;

  it("is the table (source env), without reading the database", async () => {
    expect(await modelPrices(db)).toEqual({ prices: PRICES, source: "env" });
  });

  it("cannot be replaced: 409 MODEL_PRICES_FROM_ENV naming the variable", async () => {
    await expect(setModelPrices(db, { prices: [] })).rejects.toMatchObject({
      status: 409,
      code: "MODEL_PRICES_FROM_ENV",
      message: expect.stringContaining("FLOWBENCH_MODEL_PRICES"),
    });
  });
});
