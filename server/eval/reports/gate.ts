/**
 * THE gate rule (spec 4.3 and 8): one pure function, `evaluateGate`, used by the gate CLI, the run report,
 * `GET /runs/{id}/gate` and the UI banner. Its outcomes (pass, fail: decided, pending: not yet) and what each
 * condition means: server/eval/behaviour.md, "The gate". The counts carry the 95 % Wilson interval of the
 * human-confirmed pass rate over the judged questions; it is shown beside the count, the decision stays the threshold
 * on the count.
 */
import { intervalWords, percent, roundedInterval, wilson, type Interval } from "./statistics";

export type GateQuestion = {
  key: string;
  verdict: "pass" | "fail" | null;
  /** who made the verdict: typed by a person, or adopted in bulk (absent: typed, as before this field existed) */
  source?: "human" | "adopted" | null;
  /** the question is on the spot-check list (the one rule, `needsSpotCheck`); absent: not */
  spotCheck?: boolean;
  /** its reviewers disagree and no adjudicator has decided yet (several reviewers per item); absent: not */
  disputed?: boolean;
  /** drawn by an adoption's audit (an adopted pass a person must check: verdicts/audit-sample.ts); absent: not */
  audit?: boolean;
};
/**
 * The audit of adopted passes as the run keeps it: the run's `auditRate` and `maxAuditOverturn` (fixed when it was
 * created) and how many adoptions drew an audit (0: nothing adopted yet, or only before audits existed).
 */
export type GateAuditInput = { rate: number; maxOverturn: number; draws: number };
/** Agreement between the people who reviewed (runs with several reviewers per item) and what the run requires. */
export type GateReviewerAgreement = { n: number; kappa: number | null; minKappa: number | null };
export type GateInput = {
  runId: string;
  shortId: string;
  runStatus: string;
  setKind: "golden" | "regression_pool";
  threshold: number;
  questions: GateQuestion[];
  /** runs with several reviewers per item; absent or null: one reviewer per item */
  reviewerAgreement?: GateReviewerAgreement | null;
  /** the audit of adopted passes (runs with one reviewer per item); absent or null: none */
  audit?: GateAuditInput | null;
};
export type GateStatus = "pass" | "fail" | "pending";
export type GateReasonCode =
  | "GATE_TRACK_B"
  | "GATE_RUN_STATE"
  | "GATE_ANSWERING"
  | "GATE_NO_QUESTIONS"
  | "GATE_UNJUDGED"
  | "GATE_SPOT_CHECKS_LEFT"
  | "GATE_BELOW_THRESHOLD"
  | "GATE_OUT_OF_REACH"
  | "GATE_THRESHOLD_UNREACHABLE"
  | "GATE_DISPUTED"
  | "GATE_REVIEWER_AGREEMENT"
  | "GATE_AUDIT_PENDING"
  | "GATE_AUDIT_OVERTURNED";

/** Every reason the gate gives, with what it means (the vocabulary, GET /api/eval/meta `gateReasons`, lists them). */
export const GATE_REASONS: Record<
  GateReasonCode,
  { outcome: "fail" | "pending" | "fail or pending"; meaning: string }
> = {
  GATE_TRACK_B: {
    outcome: "fail",
    meaning: "The run's set is a regression pool (track B): only golden-set runs (track A) can pass",
  },
  GATE_RUN_STATE: { outcome: "fail", meaning: "The run was cancelled or failed: it never finished answering" },
  GATE_ANSWERING: { outcome: "pending", meaning: "The run has not started or is still answering" },
  GATE_NO_QUESTIONS: { outcome: "fail", meaning: "The set version has no questions" },
  GATE_UNJUDGED: { outcome: "pending", meaning: "Questions without a verdict (with their count and keys)" },
  GATE_SPOT_CHECKS_LEFT: {
    outcome: "pending",
    meaning:
      "Spot-check questions (suggestion fail or unknown, or a guardrail flag) whose verdict no person has typed yet",
  },
  GATE_BELOW_THRESHOLD: {
    outcome: "fail or pending",
    meaning: "Fewer human-confirmed passes than the run's threshold: a fail once every question is judged and checked",
  },
  GATE_OUT_OF_REACH: {
    outcome: "fail",
    meaning: "Even if every open question passed, the passes would stay below the threshold",
  },
  GATE_THRESHOLD_UNREACHABLE: { outcome: "fail", meaning: "The threshold is more than the set's questions" },
  GATE_DISPUTED: {
    outcome: "pending",
    meaning: "Questions whose reviewers disagree, waiting for an adjudicator (with their count)",
  },
  GATE_REVIEWER_AGREEMENT: {
    outcome: "fail or pending",
    meaning:
      "Agreement between reviewers (kappa) below the set's minReviewerKappa: pending while anything else is open, then a fail",
  },
  GATE_AUDIT_PENDING: {
    outcome: "pending",
    meaning:
      "Adopted passes drawn for the audit (audit: true on the spot-check list) that no person has typed a verdict on yet (with their count)",
  },
  GATE_AUDIT_OVERTURNED: {
    outcome: "fail",
    meaning:
      "The audit overturned more adopted passes (a person typed fail) than the set's maxAuditOverturn: a fail until people have typed a verdict on every other adopted pass too",
  },
};

/**
 * The audit of adopted passes in the gate's answer (null when the run has none: several reviewers per item, or no
 * adoption has drawn one and the rate is above 0).
 */
export type GateAudit = {
  /** the run's auditRate (0: no audit) and maxAuditOverturn */
  rate: number;
  maxOverturn: number;
  /** audit items drawn, those a person has typed a verdict on, and of those the ones typed fail (overturned) */
  sampled: number;
  checked: number;
  overturned: number;
  /** adopted passes no person has typed a verdict on yet (the rest to review after an overturning audit) */
  adoptedPassesLeft: number;
  /** the estimated false-pass rate of the adopted passes: overturned / checked, with its 95 % Wilson interval */
  falsePassRate: number | null;
  interval: Interval | null;
  /** "audit of adopted passes: 5 of 5 checked, 1 overturned" or "audit of adopted passes: no audit (rate 0)" */
  line: string;
};
export type GateResult = {
  passed: boolean;
  status: GateStatus;
  summary: string;
  reasons: Array<{ code: GateReasonCode; message: string }>;
  /** what a pending gate waits for, in words ("13 spot-checks left"); empty unless pending */
  missing: string[];
  counts: {
    questions: number;
    judged: number;
    unjudged: number;
    pass: number;
    /** passes a person typed */
    passTyped: number;
    /** passes adopted from machine suggestions */
    passAdopted: number;
    fail: number;
    /** verdicts a person typed (pass or fail) */
    typed: number;
    /** verdicts adopted in bulk and not changed by a person */
    adopted: number;
    /** spot-check questions without a verdict a person typed */
    spotChecksLeft: number;
    threshold: number;
    missingPasses: number;
    /** the most passes still possible: passes now, plus every open question (no verdict, or an adopted fail still to spot-check) */
    reachablePasses: number;
    /** 95 % Wilson interval of pass / judged (unjudged questions are not in n); null when nothing is judged. Shown only: the rule is the threshold on the count */
    interval: Interval | null;
    /** questions whose reviewers disagree, waiting for an adjudicator (not in unjudged) */
    disputed: number;
  };
  unjudged: string[];
  /** keys of the disputed questions */
  disputed: string[];
  spotChecksLeft: string[];
  failing: string[];
  /** the audit of adopted passes; null when the run has none */
  audit: GateAudit | null;
  /** keys of the audit items no person has typed a verdict on yet */
  auditLeft: string[];
};

const READY = new Set(["awaiting_review", "completed"]);
const STILL_ANSWERING = new Set(["created", "answering"]);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const list = (keys: string[]) => `${keys.slice(0, 10).join(", ")}${keys.length > 10 ? ", ..." : ""}`;

/**
 * The gate's counts in one line, the same in the server's summary and the gate CLI:
 * "27/30 human-confirmed passes, 95 % interval 74-97 %, threshold 26 (25 typed, 2 adopted; 30 judged, 0 unjudged)".
 */
export function gateCountsLine(c: GateResult["counts"]): string {
  return `${c.pass}/${c.questions} human-confirmed passes, ${intervalWords(c.interval)}, threshold ${c.threshold} (${c.passTyped} typed, ${c.passAdopted} adopted; ${c.judged} judged, ${c.unjudged} unjudged)`;
}

/** The audit's line for people (the report, the gate CLI, the run page). */
export function auditLine(a: Pick<GateAudit, "rate" | "sampled" | "checked" | "overturned">): string {
  if (a.rate <= 0) return "audit of adopted passes: no audit (rate 0)";
  return `audit of adopted passes: ${a.checked} of ${a.sampled} checked, ${a.overturned} overturned`;
}

/** The estimated false-pass rate in words: "estimated false-pass rate of the adopted passes 20 % (95 % interval 4-62 %, n 5)". */
export function falsePassWords(a: Pick<GateAudit, "falsePassRate" | "interval" | "checked">): string | null {
  if (a.falsePassRate === null) return null;
  return `estimated false-pass rate of the adopted passes ${percent(a.falsePassRate)} % (${intervalWords(a.interval)}, n ${a.checked})`;
}

/** The audit of adopted passes from the questions (pure; see GateAudit). */
export function auditOf(input: GateInput): GateAudit | null {
  const a = input.audit;
  if (!a || (a.draws === 0 && a.rate > 0)) return null;
  const typed = (x: GateQuestion) => x.verdict !== null && x.source !== "adopted";
  // a run's rate is fixed when it is created, so at rate 0 nothing is drawn; marks there would not be this audit's
  const drawn = a.rate > 0 ? input.questions.filter((x) => x.audit) : [];
  const checked = drawn.filter(typed);
  const overturned = checked.filter((x) => x.verdict === "fail").length;
  const counts = { rate: a.rate, sampled: drawn.length, checked: checked.length, overturned };
  return {
    ...counts,
    maxOverturn: a.maxOverturn,
    adoptedPassesLeft: input.questions.filter((x) => x.verdict === "pass" && x.source === "adopted").length,
    falsePassRate: checked.length ? Math.round((overturned / checked.length) * 10000) / 10000 : null,
    interval: roundedInterval(wilson(overturned, checked.length)),
    line: auditLine(counts),
  };
}

export function evaluateGate(input: GateInput): GateResult {
  const q = input.questions;
  const typedOf = (x: GateQuestion) => x.verdict !== null && x.source !== "adopted";
  const pass = q.filter((x) => x.verdict === "pass").length;
  const passTyped = q.filter((x) => x.verdict === "pass" && typedOf(x)).length;
  const fail = q.filter((x) => x.verdict === "fail").length;
  const typed = q.filter(typedOf).length;
  const unjudged = q.filter((x) => x.verdict === null && !x.disputed).map((x) => x.key);
  const disputed = q.filter((x) => x.verdict === null && x.disputed).map((x) => x.key);
  // a disputed question waits for an adjudicator (a person): it is counted there, not as a spot-check left too
  const spotLeft = q.filter((x) => x.spotCheck && !typedOf(x) && !x.disputed);
  const spotChecksLeft = spotLeft.map((x) => x.key);
  // an adopted fail still to spot-check may become a pass; an adopted pass already counts
  const reachablePasses =
    pass + unjudged.length + disputed.length + spotLeft.filter((x) => x.verdict === "fail").length;
  const failing = q.filter((x) => x.verdict === "fail").map((x) => x.key);

  const decided: GateResult["reasons"] = [];
  const open: GateResult["reasons"] = [];
  const missing: string[] = [];
  if (input.setKind !== "golden") {
    decided.push({
      code: "GATE_TRACK_B",
      message: "the run's set is a regression pool (track B): only golden-set runs (track A) can pass the release gate",
    });
  }
  if (STILL_ANSWERING.has(input.runStatus)) {
    open.push({ code: "GATE_ANSWERING", message: `the run is ${input.runStatus}: it has not finished answering` });
    missing.push(input.runStatus === "created" ? "the run has not started" : "the run is still answering");
  } else if (!READY.has(input.runStatus)) {
    decided.push({
      code: "GATE_RUN_STATE",
      message: `the run is ${input.runStatus}; it must have finished answering (awaiting_review or completed)`,
    });
  }
  if (q.length === 0) decided.push({ code: "GATE_NO_QUESTIONS", message: "the set version has no questions" });
  if (unjudged.length) {
    open.push({
      code: "GATE_UNJUDGED",
      message: `${unjudged.length} of ${q.length} questions have no verdict: ${list(unjudged)}`,
    });
    missing.push(`${plural(unjudged.length, "question")} without a verdict`);
  }
  if (disputed.length) {
    open.push({
      code: "GATE_DISPUTED",
      message: `${plural(disputed.length, "question")} disputed (the reviewers disagree), waiting for an adjudicator: ${list(disputed)}`,
    });
    missing.push(`${plural(disputed.length, "disputed question")} to adjudicate`);
  }
  if (spotChecksLeft.length) {
    open.push({
      code: "GATE_SPOT_CHECKS_LEFT",
      message: `${plural(spotChecksLeft.length, "spot-check")} left (adopted or no verdict, not yet checked by a person): ${list(spotChecksLeft)}`,
    });
    missing.push(`${plural(spotChecksLeft.length, "spot-check")} left`);
  }
  if (input.threshold > q.length) {
    decided.push({
      code: "GATE_THRESHOLD_UNREACHABLE",
      message: `the threshold ${input.threshold} is more than the ${q.length} questions of the set`,
    });
  } else if (reachablePasses < input.threshold) {
    decided.push(
      open.length
        ? {
            code: "GATE_OUT_OF_REACH",
            message: `even if every open question passed there would be ${reachablePasses} human-confirmed passes, the threshold is ${input.threshold}`,
          }
        : {
            code: "GATE_BELOW_THRESHOLD",
            message: `${pass} human-confirmed passes, the threshold is ${input.threshold} (${input.threshold - pass} more needed)`,
          },
    );
  } else if (pass < input.threshold) {
    open.push({
      code: "GATE_BELOW_THRESHOLD",
      message: `${pass} human-confirmed passes so far, the threshold is ${input.threshold} (${input.threshold - pass} more needed)`,
    });
    missing.push(`${plural(input.threshold - pass, "more pass", "more passes")}`);
  }
  const audit = auditOf(input);
  const auditLeft = audit && audit.rate > 0 ? q.filter((x) => x.audit && !typedOf(x)).map((x) => x.key) : [];
  if (audit && auditLeft.length) {
    open.push({
      code: "GATE_AUDIT_PENDING",
      message: `${auditLeft.length} of ${audit.sampled} audit items (adopted passes drawn for a person to check) have no verdict a person typed: ${list(auditLeft)}`,
    });
    missing.push(`${plural(auditLeft.length, "audit item")} to check`);
  }
  if (audit && audit.overturned > audit.maxOverturn && audit.adoptedPassesLeft > 0) {
    // lifted once people have typed a verdict on every other adopted pass: then the verdicts decide, as without adoption
    decided.push({
      code: "GATE_AUDIT_OVERTURNED",
      message: `the audit overturned ${audit.overturned} of ${audit.checked} checked adopted passes (the set allows ${audit.maxOverturn}): ${plural(audit.adoptedPassesLeft, "adopted pass", "adopted passes")} left for people to review`,
    });
  }
  const ra = input.reviewerAgreement;
  if (ra && ra.minKappa !== null && ra.kappa !== null && ra.kappa < ra.minKappa) {
    // below the agreement the run requires: decided once nothing else is open (more reviews may still change it)
    const reason = {
      code: "GATE_REVIEWER_AGREEMENT" as const,
      message: `agreement between reviewers is kappa ${ra.kappa} over ${plural(ra.n, "question")}, the set requires ${ra.minKappa}`,
    };
    if (open.length) {
      open.push(reason);
      missing.push(`reviewer agreement of ${ra.minKappa} (now ${ra.kappa})`);
    } else decided.push(reason);
  }
  const status: GateStatus = decided.length ? "fail" : open.length ? "pending" : "pass";
  const reasons = [...decided, ...open];
  const counts = {
    questions: q.length,
    judged: pass + fail,
    unjudged: unjudged.length,
    pass,
    passTyped,
    passAdopted: pass - passTyped,
    fail,
    typed,
    adopted: pass + fail - typed,
    spotChecksLeft: spotChecksLeft.length,
    threshold: input.threshold,
    missingPasses: Math.max(0, input.threshold - pass),
    reachablePasses,
    interval: roundedInterval(wilson(pass, pass + fail)),
    disputed: disputed.length,
  };
  const head = gateCountsLine(counts);
  const summary =
    status === "pass"
      ? `PASS ${input.shortId}: ${head}, every question judged`
      : status === "pending"
        ? `PENDING ${input.shortId}: ${head}; waiting for: ${missing.join(", ")}`
        : `FAIL ${input.shortId}: ${head}, ${unjudged.length} unjudged, ${fail} failed; ${reasons.map((r) => r.message).join("; ")}`;
  return {
    passed: status === "pass",
    status,
    summary,
    reasons,
    missing: status === "pending" ? missing : [],
    counts,
    unjudged,
    disputed,
    spotChecksLeft,
    failing,
    audit,
    auditLeft,
  };
}
