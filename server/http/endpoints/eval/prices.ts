import { rest } from "../../rest";
import * as op from "../../../eval/operations";
import { conflict, invalid } from "./shared";

/** The model price table over REST (/api/admin/model-prices): admins only; handlers only call server/eval. */

const base = { tag: "Settings", auth: "token-or-session" } as const;
const description =
  "One row per model as traces record it (an llm step's model, the judge's model; `offline` for the offline provider): price per million prompt and completion tokens and an ISO 4217 currency. Reports (`cost`), usage (per day and in total) and the annotation view's item turn tokens into money with the table as it is when read; a model without a price is named in `cost.missingPrices` and its tokens are in no sum. Mixed currencies are summed per currency (`cost.byCurrency`), never converted. While FLOWBENCH_MODEL_PRICES is set, it is the table (`source: env`) and PUT answers 409 MODEL_PRICES_FROM_ENV.";

export const adminGetModelPrices = rest(op.adminGetModelPrices, {
  ...base,
  method: "GET",
  path: "/api/admin/model-prices",
  summary: "The model price table (admins)",
  description,
  responses: { 200: "The price table and where it comes from" },
});

export const adminPutModelPrices = rest(op.adminPutModelPrices, {
  ...base,
  method: "PUT",
  path: "/api/admin/model-prices",
  summary: "Replace the model price table (admins)",
  description,
  responses: {
    200: "The stored price table",
    ...invalid(
      "Not a valid price table (a negative price, a currency that is not three letters, a model listed twice)",
    ),
    ...conflict("MODEL_PRICES_FROM_ENV: the table comes from FLOWBENCH_MODEL_PRICES"),
  },
});
