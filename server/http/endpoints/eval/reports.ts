import { rest } from "../../rest";
import * as op from "../../../eval/operations";
import { base, notFound, invalid } from "./shared";

/** Report, gate, comparison over REST (/api/eval/*); handlers only call server/eval. */

export const evalRunReport = rest(op.evalRunReport, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/report",
  summary:
    "Run report: machine and human-confirmed pass rates side by side (never mixed), completeness, breakdowns, agreement, latency, tokens, gate",
  responses: { 200: "The report", ...notFound },
});

export const evalRunGate = rest(op.evalRunGate, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/{id}/gate",
  summary: "The golden gate for a run (what check_eval_golden_gate reads)",
  responses: { 200: "Gate input and result", ...notFound },
});

export const evalCompareRuns = rest(op.evalCompareRuns, {
  ...base,
  method: "GET",
  path: "/api/eval/runs/compare",
  summary: "Compare two runs question by question",
  responses: { 200: "The comparison", ...invalid(), ...notFound },
});
