import type { z } from "zod";
import type { Db } from "../../db/client";
import { env } from "../../core/env";
import { parseInput } from "../../core/errors";
import { evalErrors } from "../errors";
import { type ModelPrice, ModelPrices, ModelPricesIn } from "../../core/prices";

/**
 * The model price table (server/core/prices.ts has its grammar and the cost rule). FLOWBENCH_MODEL_PRICES wins while
 * it is set (validated at start-up); otherwise the ModelPrice rows admins keep in Settings. Empty by default.
 */
export async function modelPrices(db: Db): Promise<{ prices: ModelPrice[]; source: "settings" | "env" }> {
  const raw = env().FLOWBENCH_MODEL_PRICES;
  if (raw?.trim()) return { prices: ModelPrices.parse(JSON.parse(raw)), source: "env" };
  const rows = await db.modelPrice.findMany({ orderBy: { model: "asc" } });
  return {
    prices: rows.map((r) => ({
      model: r.model,
      promptPerMillion: r.promptPerMillion,
      completionPerMillion: r.completionPerMillion,
      currency: r.currency,
    })),
    source: "settings",
  };
}

/** Replaces the whole table; 409 MODEL_PRICES_FROM_ENV while FLOWBENCH_MODEL_PRICES is set. */
export async function setModelPrices(db: Db, body: z.input<typeof ModelPricesIn>) {
  const { prices } = parseInput(ModelPricesIn, body);
  if (env().FLOWBENCH_MODEL_PRICES?.trim()) throw evalErrors.pricesFromEnv();
  await db.$transaction([
    db.modelPrice.deleteMany({}),
    db.modelPrice.createMany({ data: prices.map((p) => ({ ...p, updatedAt: new Date() })) }),
  ]);
  return modelPrices(db);
}
