/**
 * THE gate rule (spec 4.3 and 8), one pure function used by the gate CLI, the run report and the UI banner.
 *
 * A run passes the golden gate only when ALL of these hold:
 *   - the run's set is a golden set (a regression_pool run can never pass: track B never replaces track A);
 *   - the run is in review or completed (not created, answering, cancelled or failed);
 *   - every question of the set version has a verdict (human-typed, or a machine suggestion a person adopted in bulk:
 *     adopted suggestions count exactly as the verdicts they became; an unknown suggestion never becomes a verdict,
 *     so it blocks);
 *   - human-confirmed passes >= the set's threshold (an absolute count, e.g. 26 of 30).
 * Machine suggestions themselves never count.
 */
export type GateQuestion = { key: string; verdict: "pass" | "fail" | null };
export type GateInput = {
  runId: string;
  shortId: string;
  runStatus: string;
  setKind: "golden" | "regression_pool";
  threshold: number;
  questions: GateQuestion[];
};
export type GateReasonCode =
  | "GATE_TRACK_B"
  | "GATE_RUN_STATE"
  | "GATE_NO_QUESTIONS"
  | "GATE_UNJUDGED"
  | "GATE_BELOW_THRESHOLD"
  | "GATE_THRESHOLD_UNREACHABLE";
export type GateResult = {
  passed: boolean;
  status: "pass" | "fail";
  summary: string;
  reasons: Array<{ code: GateReasonCode; message: string }>;
  counts: {
    questions: number;
    judged: number;
    unjudged: number;
    pass: number;
    fail: number;
    threshold: number;
    missingPasses: number;
  };
  unjudged: string[];
  failing: string[];
};

const READY = new Set(["awaiting_review", "completed"]);

export function evaluateGate(input: GateInput): GateResult {
  const q = input.questions;
  const pass = q.filter((x) => x.verdict === "pass").length;
  const fail = q.filter((x) => x.verdict === "fail").length;
  const unjudged = q.filter((x) => x.verdict === null).map((x) => x.key);
  const failing = q.filter((x) => x.verdict === "fail").map((x) => x.key);
  const reasons: GateResult["reasons"] = [];
  if (input.setKind !== "golden") {
    reasons.push({
      code: "GATE_TRACK_B",
      message: "the run's set is a regression pool (track B): only golden-set runs (track A) can pass the release gate",
    });
  }
  if (!READY.has(input.runStatus))
    reasons.push({
      code: "GATE_RUN_STATE",
      message: `the run is ${input.runStatus}; it must have finished answering (awaiting_review or completed)`,
    });
  if (q.length === 0) reasons.push({ code: "GATE_NO_QUESTIONS", message: "the set version has no questions" });
  if (unjudged.length) {
    reasons.push({
      code: "GATE_UNJUDGED",
      message: `${unjudged.length} of ${q.length} questions have no verdict: ${unjudged.slice(0, 10).join(", ")}${unjudged.length > 10 ? ", ..." : ""}`,
    });
  }
  if (input.threshold > q.length) {
    reasons.push({
      code: "GATE_THRESHOLD_UNREACHABLE",
      message: `the threshold ${input.threshold} is more than the ${q.length} questions of the set`,
    });
  } else if (pass < input.threshold) {
    reasons.push({
      code: "GATE_BELOW_THRESHOLD",
      message: `${pass} human-confirmed passes, the threshold is ${input.threshold} (${input.threshold - pass} more needed)`,
    });
  }
  const passed = reasons.length === 0;
  const counts = {
    questions: q.length,
    judged: pass + fail,
    unjudged: unjudged.length,
    pass,
    fail,
    threshold: input.threshold,
    missingPasses: Math.max(0, input.threshold - pass),
  };
  const summary = passed
    ? `PASS ${input.shortId}: ${pass}/${q.length} human-confirmed passes (threshold ${input.threshold}), every question judged`
    : `FAIL ${input.shortId}: ${pass}/${q.length} human-confirmed passes (threshold ${input.threshold}), ${unjudged.length} unjudged, ${fail} failed; ${reasons.map((r) => r.message).join("; ")}`;
  return { passed, status: passed ? "pass" : "fail", summary, reasons, counts, unjudged, failing };
}
