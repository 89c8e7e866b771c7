import { defineEndpoint } from "../../endpoint";
import { usage, UsageQuery } from "../../../eval";
import { UsageOut } from "../../../eval/reports/schemas";
import { base, invalid } from "./shared";

/** Usage over REST (/api/eval/*); handlers only call server/eval. */

export const evalUsage = defineEndpoint({
  ...base,
  method: "GET",
  path: "/api/eval/usage",
  operationId: "evalUsage",
  summary:
    "Usage by UTC day and agent: runs, answered items, model calls and tokens (answering and judging separately)",
  description:
    "Range: from/to (YYYY-MM-DD, UTC, inclusive; default the last 30 days, at most 366). Runs count by creation day, answered items and answering tokens by answer day, judging by suggestion day.",
  permission: "eval.read",
  query: UsageQuery,
  responses: { 200: { description: "Usage", schema: UsageOut }, ...invalid() },
  handler: async ({ db, query }) => ({ status: 200, body: await usage(db, query) }),
});
