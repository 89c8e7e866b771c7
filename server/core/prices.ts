import { z } from "zod";

/**
 * The model price table's grammar and the one rule that turns tokens into money (pure; no I/O). The table is set by
 * admins (Settings, PUT /api/admin/model-prices, stored in ModelPrice) or by FLOWBENCH_MODEL_PRICES (the same array
 * as JSON), which wins while it is set. Costs are computed when read, with the table as it is then.
 */
export const ModelPrice = z
  .object({
    model: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .meta({ description: "The model as traces record it, e.g. gpt-4o-mini or offline" }),
    promptPerMillion: z.number().min(0).max(1_000_000).meta({ description: "Price per million prompt tokens" }),
    completionPerMillion: z.number().min(0).max(1_000_000).meta({ description: "Price per million completion tokens" }),
    currency: z
      .string()
      .trim()
      .length(3, "currency must be a three-letter code such as USD")
      .regex(/^[A-Za-z]{3}$/, "currency must be a three-letter code such as USD")
      .transform((c) => c.toUpperCase())
      .meta({ description: "ISO 4217 code, e.g. USD" }),
  })
  .meta({ id: "ModelPrice" });
export type ModelPrice = z.infer<typeof ModelPrice>;

export const ModelPrices = z
  .array(ModelPrice)
  .max(200)
  .superRefine((prices, ctx) => {
    const seen = new Set<string>();
    for (const [i, p] of prices.entries()) {
      if (seen.has(p.model))
        ctx.addIssue({ code: "custom", path: [i, "model"], message: `${p.model} is listed twice` });
      seen.add(p.model);
    }
  });

/** FLOWBENCH_MODEL_PRICES: a problem to report at start-up, or null (unset or valid). */
export function modelPricesEnvProblem(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    return `must be a JSON array of { model, promptPerMillion, completionPerMillion, currency } (${(e as Error).message})`;
  }
  const parsed = ModelPrices.safeParse(value);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return `${issue.path.length ? `[${issue.path.join(".")}] ` : ""}${issue.message}`;
}

/** Tokens of one model. */
export type ModelTokens = { model: string; promptTokens: number; completionTokens: number };

/** Adds token lists together, one entry per model (sorted by model). */
export function mergeTokens(...lists: Array<readonly ModelTokens[] | null | undefined>): ModelTokens[] {
  const by = new Map<string, ModelTokens>();
  for (const list of lists)
    for (const t of list ?? []) {
      const x = by.get(t.model) ?? { model: t.model, promptTokens: 0, completionTokens: 0 };
      x.promptTokens += t.promptTokens;
      x.completionTokens += t.completionTokens;
      by.set(t.model, x);
    }
  return [...by.values()].sort((a, b) => a.model.localeCompare(b.model));
}

/** Reads a stored token list (a JSON column) leniently: anything else is no tokens. */
export function tokensOf(value: unknown): ModelTokens[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) =>
    v && typeof v === "object" && typeof (v as ModelTokens).model === "string"
      ? [
          {
            model: (v as ModelTokens).model,
            promptTokens: Number((v as ModelTokens).promptTokens) || 0,
            completionTokens: Number((v as ModelTokens).completionTokens) || 0,
          },
        ]
      : [],
  );
}

export type CostPart = { currency: string; answering: number; judging: number; total: number };
export type Cost = {
  currency: string | null;
  answering: number | null;
  judging: number | null;
  total: number | null;
  byCurrency: CostPart[];
  missingPrices: string[];
};

const money = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * THE cost rule: tokens x price per million, answering and judging apart, per currency. `answering`, `judging` and
 * `total` are stated (in `currency`) only when every model used has a price and all prices used share one currency;
 * otherwise they are null, `missingPrices` names the models without a price (their tokens are in no sum) and
 * `byCurrency` has the sums of the priced tokens per currency (never converted). No tokens at all cost 0.
 */
export function costOf(
  usage: { answering: readonly ModelTokens[]; judging: readonly ModelTokens[] },
  prices: readonly ModelPrice[],
): Cost {
  const table = new Map(prices.map((p) => [p.model, p]));
  const parts = new Map<string, CostPart>();
  const missing = new Set<string>();
  const add = (list: readonly ModelTokens[], side: "answering" | "judging") => {
    for (const t of list) {
      if (t.promptTokens === 0 && t.completionTokens === 0) continue;
      const p = table.get(t.model);
      if (!p) {
        missing.add(t.model);
        continue;
      }
      const part = parts.get(p.currency) ?? { currency: p.currency, answering: 0, judging: 0, total: 0 };
      const amount = (t.promptTokens * p.promptPerMillion + t.completionTokens * p.completionPerMillion) / 1e6;
      part[side] += amount;
      part.total += amount;
      parts.set(p.currency, part);
    }
  };
  add(usage.answering, "answering");
  add(usage.judging, "judging");
  const byCurrency = [...parts.values()]
    .map((p) => ({ ...p, answering: money(p.answering), judging: money(p.judging), total: money(p.total) }))
    .sort((a, b) => a.currency.localeCompare(b.currency));
  const missingPrices = [...missing].sort();
  const one = byCurrency.length <= 1 && missingPrices.length === 0;
  const only = byCurrency[0];
  const sole = prices.length ? new Set(prices.map((p) => p.currency)) : new Set<string>();
  return {
    currency: one ? (only?.currency ?? (sole.size === 1 ? [...sole][0]! : null)) : null,
    answering: one ? (only?.answering ?? 0) : null,
    judging: one ? (only?.judging ?? 0) : null,
    total: one ? (only?.total ?? 0) : null,
    byCurrency,
    missingPrices,
  };
}

const amount = z.number().nullable();
/** The one cost shape (run report, usage days and totals, an item in the annotation view). */
export const CostOut = z
  .object({
    currency: z
      .string()
      .nullable()
      .meta({ description: "The currency of answering/judging/total; null when prices are missing or mixed" }),
    answering: amount.meta({ description: "Cost of answering (all answers); null when it cannot be stated" }),
    judging: amount.meta({ description: "Cost of the LLM judge; null when it cannot be stated" }),
    total: amount.meta({ description: "answering + judging; null when it cannot be stated" }),
    byCurrency: z
      .array(z.object({ currency: z.string(), answering: z.number(), judging: z.number(), total: z.number() }))
      .meta({
        description:
          "Sums of the priced tokens per currency (never converted); partial when missingPrices is not empty",
      }),
    missingPrices: z.array(z.string()).meta({
      description: "Models with tokens but no price: their tokens are in no sum (the page says: no price for <model>)",
    }),
  })
  .meta({ id: "Cost" });

export const ModelPricesOut = z
  .object({
    prices: z.array(ModelPrice),
    source: z.enum(["settings", "env"]).meta({
      description:
        "env: FLOWBENCH_MODEL_PRICES is set and wins (the table cannot be edited); settings: the stored table",
    }),
  })
  .meta({ id: "ModelPrices" });
export const ModelPricesIn = z.object({ prices: ModelPrices }).meta({ id: "ModelPricesInput" });
