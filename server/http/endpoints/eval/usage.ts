import { rest } from "../../rest";
import * as op from "../../../eval/operations";
import { base, invalid } from "./shared";

/** Usage over REST (/api/eval/*); handlers only call server/eval. */

export const evalUsage = rest(op.evalUsage, {
  ...base,
  method: "GET",
  path: "/api/eval/usage",
  summary:
    "Usage by UTC day and agent: runs, answered items, model calls and tokens (answering and judging separately)",
  description:
    "Range: from/to (YYYY-MM-DD, UTC, inclusive; default the last 30 days, at most 366). Runs count by creation day, answered items and answering tokens by answer day, judging by suggestion day.",
  responses: { 200: "Usage", ...invalid() },
});
