/**
 * Reports, the gate, run comparison and usage: inputs and outputs. Pure: no I/O.
 */
import { z } from "zod";
import { MAX_DB_INT, dayRangeQuery } from "../../core/params";
import { OUTCOMES as COMPARE_OUTCOMES, OUTCOMES } from "./compare";
import { MAX_COMPARE_RUNS, MIN_COMPARE_RUNS, NO_VERDICTS_YET } from "./compare-many";
import { EvalRunOut } from "../runs/schemas";
import { TIERS } from "../runs/schemas";
import { SET_KINDS } from "../sets/schemas";
import { JudgeRefOut } from "../suggestions/schemas";
import { BAD_CASE_STATUSES } from "../verdicts/schemas";
import { CostOut } from "../../core/prices";

const date = z.iso.datetime();

/** A pass rate's 95 % Wilson score interval (server/eval/reports/statistics.ts). */
export const IntervalOut = z
  .object({
    low: z.number().min(0).max(1).meta({ description: "Lower end, a fraction (rounded down to 4 decimals)" }),
    high: z.number().min(0).max(1).meta({ description: "Upper end, a fraction (rounded up to 4 decimals)" }),
  })
  .nullable()
  .meta({
    description: "95 % Wilson score interval of the pass rate over n questions; null when n is 0 (nothing to count)",
  });
const humanN = z
  .number()
  .int()
  .meta({ description: "The questions the human interval counts: those with a verdict (unjudged ones are not in n)" });
const machineN = z.number().int().meta({
  description:
    "The questions the machine interval counts: those with a suggestion (pass, fail or unknown; an unknown is not a pass)",
});
const dateOrNull = date.nullable();

const runRef = z.string().min(1).max(64);
/** A yes/no query flag that may be absent (so a form can refuse one that is not its own). */
const optionalFlag = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]).optional();

/**
 * Two forms: `run_a` + `run_b` (two runs, any sets; outcomes, the paired table) or `run` repeated 2 to 8 times (runs
 * of one agent on one set version: the question x run grid). Which parameters go with which form is checked by the
 * service (server/eval/reports/comparison.ts), with a 400 naming the problem.
 */
export const CompareQuery = z.object({
  run_a: runRef.optional().meta({ description: "Two-run form: run A (the before), with run_b" }),
  run_b: runRef.optional().meta({ description: "Two-run form: run B (the after), with run_a" }),
  run: z
    .union([runRef, z.array(runRef).max(MAX_COMPARE_RUNS)], {
      // the union's own message would be "Invalid input": a list that is too long names the limit
      error: (issue) =>
        Array.isArray(issue.input) && issue.input.length > MAX_COMPARE_RUNS
          ? `at most ${MAX_COMPARE_RUNS} runs can be compared at once (got ${issue.input.length})`
          : undefined,
    })
    .transform((v) => (typeof v === "string" ? [v] : v))
    .optional()
    .meta({
      description: `Many-run form: a run (internal id or short Run ID), repeated ${MIN_COMPARE_RUNS} to ${MAX_COMPARE_RUNS} times (run=R-1&run=R-2); all of one agent on one set version. Not with run_a/run_b or outcome`,
    }),
  changed: optionalFlag.meta({
    description: "Many-run form: only the questions whose human verdict changes across the runs (a pass and a fail)",
  }),
  failing_latest: optionalFlag.meta({
    description: "Many-run form: only the questions whose human verdict in the latest run is fail",
  }),
  outcome: z
    .enum(COMPARE_OUTCOMES)
    .optional()
    .meta({ description: "Two-run form: only questions with this outcome (the summary still counts all)" }),
  q: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: "Only questions whose sample key is this (case-insensitive) or whose text contains it" }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .optional()
    .meta({ description: "Page size. Without it every (filtered) question is returned, as before paging existed" }),
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_DB_INT)
    .default(0)
    .meta({ description: "Questions to skip (page.offset + page size for the next page)" }),
});

export const UsageQuery = dayRangeQuery({ agentId: z.string().max(64).optional() }, { bounded: true });

/** The audit of adopted passes in the gate's answer (server/eval/reports/gate.ts `auditOf`). */
export const GateAuditOut = z
  .object({
    rate: z.number().meta({ description: "The run's auditRate (0: no audit)" }),
    maxOverturn: z.number().int().meta({ description: "The run's maxAuditOverturn" }),
    sampled: z.number().int().meta({ description: "Audit items drawn (every adoption's audit together)" }),
    checked: z.number().int().meta({ description: "Of those, the ones a person has typed a verdict on" }),
    overturned: z.number().int().meta({ description: "Of those, the ones typed fail: adopted passes overturned" }),
    adoptedPassesLeft: z.number().int().meta({
      description:
        "Adopted passes no person has typed a verdict on yet (audit items or not): the rest people review after an overturning audit (queue filter source=adopted&verdict=pass)",
    }),
    falsePassRate: z.number().nullable().meta({
      description:
        "The estimated false-pass rate of the adopted passes: overturned / checked (a fraction); null before any audit item is checked",
    }),
    interval: IntervalOut.meta({
      description: "95 % Wilson interval of overturned / checked; null before any audit item is checked",
    }),
    line: z.string().meta({
      description:
        'For people: "audit of adopted passes: 5 of 5 checked, 1 overturned", or "audit of adopted passes: no audit (rate 0)"',
    }),
  })
  .nullable()
  .meta({
    description:
      "The audit of adopted passes (one reviewer per item); null on runs with several reviewers per item and before any adoption drew one (unless the rate is 0: then it says no audit)",
  });

export const GateResultOut = z
  .object({
    passed: z.boolean().meta({ description: "status is pass" }),
    status: z.enum(["pass", "fail", "pending"]).meta({
      description:
        "pass; fail = decided (all judged and checked below the threshold, the threshold out of reach even if every open question passed, a regression pool, a cancelled or failed run, agreement between reviewers below the set's minReviewerKappa once nothing else is open; an audit that overturned more adopted passes than the set's maxAuditOverturn, until people have reviewed the other adopted passes); pending = not decided yet (still answering, questions without a verdict, disputed questions, spot-checks left, audit items left). Every reason code: GET /api/eval/meta gateReasons",
    }),
    summary: z.string().meta({ description: "One line starting with PASS, FAIL or PENDING" }),
    reasons: z.array(z.object({ code: z.string(), message: z.string() })),
    missing: z
      .array(z.string())
      .meta({ description: 'What a pending gate waits for, in words ("13 spot-checks left"); empty unless pending' }),
    counts: z.object({
      questions: z.number().int(),
      judged: z.number().int(),
      unjudged: z.number().int(),
      pass: z.number().int().meta({ description: "Human-confirmed passes: typed + adopted" }),
      passTyped: z.number().int().meta({ description: "Passes a person typed" }),
      passAdopted: z.number().int().meta({ description: "Passes adopted from machine suggestions" }),
      fail: z.number().int(),
      typed: z.number().int().meta({ description: "Verdicts a person typed (pass or fail)" }),
      adopted: z.number().int().meta({ description: "Verdicts adopted in bulk, not changed by a person" }),
      spotChecksLeft: z
        .number()
        .int()
        .meta({ description: "Spot-check questions without a verdict a person typed (no verdict, or adopted)" }),
      threshold: z.number().int(),
      missingPasses: z.number().int(),
      reachablePasses: z.number().int().meta({
        description:
          "The most passes still possible: passes now plus every open question (no verdict, or an adopted fail still to spot-check)",
      }),
      interval: IntervalOut.meta({
        description:
          "95 % Wilson interval of pass / judged (unjudged questions are not in n); null when nothing is judged. Shown beside the count: the decision stays the threshold on the count",
      }),
      disputed: z.number().int().meta({
        description:
          "Questions whose reviewers disagree, waiting for an adjudicator (runs with several reviewers per item; not in unjudged): the gate is pending with GATE_DISPUTED",
      }),
    }),
    unjudged: z.array(z.string()),
    disputed: z.array(z.string()).meta({ description: "Keys of the disputed questions" }),
    spotChecksLeft: z.array(z.string()).meta({ description: "Keys of the spot-check questions left" }),
    failing: z.array(z.string()),
    audit: GateAuditOut,
    auditLeft: z
      .array(z.string())
      .meta({ description: "Keys of the audit items no person has typed a verdict on yet (GATE_AUDIT_PENDING)" }),
  })
  .meta({ id: "EvalGateResult" });

export const GateOut = z
  .object({
    runId: z.string(),
    shortId: z.string(),
    setId: z.string(),
    setName: z.string(),
    setVersion: z.number().int(),
    input: z.object({
      runId: z.string(),
      shortId: z.string(),
      runStatus: z.string(),
      setKind: z.enum(SET_KINDS),
      threshold: z.number().int(),
      questions: z.array(
        z.object({
          key: z.string(),
          verdict: z.enum(["pass", "fail"]).nullable(),
          source: z
            .enum(["human", "adopted"])
            .nullable()
            .optional()
            .meta({ description: "Who made the verdict: typed by a person or adopted in bulk" }),
          spotCheck: z
            .boolean()
            .optional()
            .meta({ description: "On the spot-check list (suggestion fail or unknown, or any guardrail flag)" }),
          disputed: z
            .boolean()
            .optional()
            .meta({ description: "Its reviewers disagree and no adjudicator has decided yet" }),
          audit: z.boolean().optional().meta({
            description: "Drawn by an adoption's audit: an adopted pass a person must check (GET /runs/{id}/audits)",
          }),
        }),
      ),
      audit: z
        .object({
          rate: z.number().meta({ description: "The run's auditRate (0: no audit)" }),
          maxOverturn: z.number().int().meta({ description: "The run's maxAuditOverturn" }),
          draws: z.number().int().meta({ description: "Adoptions that drew an audit on this run" }),
        })
        .nullable()
        .optional()
        .meta({ description: "The audit of adopted passes; null on runs with several reviewers per item" }),
      reviewerAgreement: z
        .object({
          n: z.number().int(),
          kappa: z.number().nullable(),
          minKappa: z.number().nullable().meta({ description: "The run's minReviewerKappa (null: not required)" }),
        })
        .nullable()
        .optional()
        .meta({
          description:
            "Runs with several reviewers per item: the agreement between reviewers and what the run requires",
        }),
    }),
    result: GateResultOut,
  })
  .meta({ id: "EvalGate" });

const groupOut = z.object({
  total: z.number().int(),
  machinePass: z.number().int(),
  machineFail: z.number().int(),
  machineUnknown: z.number().int(),
  humanPass: z.number().int(),
  humanFail: z.number().int(),
  judged: z.number().int(),
  machinePassRate: z.number().nullable(),
  humanPassRate: z.number().nullable(),
  humanN,
  humanInterval: IntervalOut.meta({
    description: "95 % Wilson interval of humanPass / humanN (null when humanN is 0)",
  }),
  machineN,
  machineInterval: IntervalOut.meta({
    description: "95 % Wilson interval of machinePass / machineN (null when machineN is 0)",
  }),
});

const reviewerFigures = {
  n: z.number().int().meta({ description: "Questions with every review typed by a person" }),
  percent: z.number().nullable().meta({ description: "Of those, the share (0-100) on which every reviewer agreed" }),
  kappa: z.number().nullable().meta({
    description: "Cohen's kappa (two reviewers) or Fleiss' kappa (three); null without questions or without variance",
  }),
  method: z.enum(["cohen", "fleiss"]),
  disputed: z.number().int().meta({ description: "Questions disputed now (waiting for an adjudicator)" }),
  adjudicated: z.number().int().meta({ description: "Questions an adjudicator decided" }),
};

export const ReportOut = z
  .object({
    run: EvalRunOut,
    generatedAt: date,
    set: z.object({
      id: z.string(),
      name: z.string(),
      kind: z.enum(SET_KINDS),
      version: z.number().int(),
      gateThreshold: z
        .number()
        .int()
        .meta({ description: "The threshold that gates this run (fixed when the run was created)" }),
      currentGateThreshold: z
        .number()
        .int()
        .meta({ description: "The set's threshold today; differs when it was changed after the run" }),
    }),
    totals: z.object({
      items: z.number().int(),
      pending: z.number().int(),
      answering: z.number().int(),
      answered: z.number().int(),
      failed: z.number().int(),
      cancelled: z.number().int(),
    }),
    completeness: z.object({
      judged: z.number().int(),
      total: z.number().int(),
      ratio: z.number().nullable(),
      human: z.number().int(),
      adopted: z.number().int(),
    }),
    machine: z.object({
      pass: z.number().int(),
      fail: z.number().int(),
      unknown: z.number().int(),
      none: z.number().int(),
      passRate: z.number().nullable(),
      counted: z.number().int().meta({
        description:
          "The questions passRate divides by: while the run is answering, those answered so far (answered or failed); then all",
      }),
      n: machineN,
      interval: IntervalOut.meta({ description: "95 % Wilson interval of pass / n (null when n is 0)" }),
      note: z.string(),
    }),
    human: z.object({
      pass: z.number().int(),
      fail: z.number().int(),
      unjudged: z.number().int(),
      passRate: z.number().nullable(),
      passRateOfJudged: z.number().nullable(),
      n: humanN,
      interval: IntervalOut.meta({
        description: "95 % Wilson interval of pass / n, the rate of the judged (passRateOfJudged); null when n is 0",
      }),
      note: z.string(),
    }),
    breakdown: z.object({
      byTier: z.array(groupOut.extend({ tier: z.enum(TIERS) })),
      byClassification: z.array(groupOut.extend({ classification: z.string() })),
      byAttribution: z.array(z.object({ attribution: z.string(), fails: z.number().int() })),
      byFlag: z.array(z.object({ flag: z.string(), items: z.number().int() })),
    }),
    agreement: z.object({
      judge: JudgeRefOut.meta({
        description: "The judge whose suggestions are compared with people's verdicts: the run's judge (run.judge)",
      }),
      pairs: z.number().int(),
      agreed: z.number().int(),
      rawAgreement: z.number().nullable(),
      expectedAgreement: z.number().nullable(),
      kappa: z.number().nullable().meta({ description: "Cohen's kappa; null without pairs or without variance" }),
      matrix: z.record(z.string(), z.number().int()),
      note: z.string().nullable(),
      excludedUnknown: z.number().int(),
      excludedAdopted: z.number().int(),
      typed: z.number().int().meta({
        description:
          "Verdicts people typed: pairs + excludedUnknown, the same number as completeness.human (the pairs leave out typed verdicts whose suggestion was unknown or missing)",
      }),
      basis: z.string(),
    }),
    reviewerAgreement: z
      .object({
        reviewers: z.number().int().meta({ description: "Reviews per item (the run's reviewsPerItem: 2 or 3)" }),
        ...reviewerFigures,
        byClassification: z.array(z.object({ classification: z.string(), ...reviewerFigures })),
      })
      .nullable()
      .meta({
        description:
          "Agreement between the people who reviewed, on a run with several reviewers per item (null with one reviewer per item). Counts the questions whose reviews are complete and all typed by people (an adopted suggestion is the machine); percent: questions on which every reviewer agreed; kappa: Cohen's for two reviewers (first review against second), Fleiss' for three",
      }),
    latency: z.object({
      items: z.number().int(),
      totalMs: z.number(),
      meanMs: z.number().nullable(),
      p50Ms: z.number().nullable(),
      p95Ms: z.number().nullable(),
      maxMs: z.number().nullable(),
    }),
    tokens: z.object({
      answering: z.object({
        promptTokens: z.number().int(),
        completionTokens: z.number().int(),
        totalTokens: z.number().int(),
        modelCalls: z.number().int(),
      }),
      judging: z.object({ tokens: z.number().int(), modelCalls: z.number().int() }),
    }),
    cost: CostOut.meta({ description: "The tokens above in money, with the model price table as it is now" }),
    consistency: z
      .object({
        repeats: z.number().int().meta({ description: "Answers per question the run was created with" }),
        compared: z.number().int().meta({ description: "Questions with more than one answer suggested" }),
        unstable: z.array(
          z.object({
            key: z.string(),
            suggestions: z
              .array(z.enum(["pass", "fail", "unknown"]).nullable())
              .meta({ description: "Each answer's machine suggestion, the first (the one people judge) first" }),
            text: z.string().meta({ description: 'e.g. "unstable: pass 2 of 3"' }),
          }),
        ),
        unstableShare: z
          .number()
          .nullable()
          .meta({ description: "unstable / compared (null when nothing was compared, e.g. repeats 1)" }),
      })
      .meta({
        description:
          "Repeated answers: questions whose machine suggestions differ between their answers. Never counted by a gate (it counts the verdicts on the first answers)",
      }),
    audit: GateAuditOut.unwrap()
      .extend({
        estimate: z.string().nullable().meta({
          description:
            '"estimated false-pass rate of the adopted passes 20 % (95 % interval 4-62 %, n 5)"; null before any audit item is checked',
        }),
      })
      .nullable()
      .meta({
        description:
          "The audit of adopted passes (the gate's, with the estimate in words); null on runs with several reviewers per item and before any adoption drew one (unless the rate is 0: no audit)",
      }),
    gate: GateResultOut,
  })
  .meta({ id: "EvalReport" });

const sideOut = z
  .object({
    itemId: z.string(),
    human: z.enum(["pass", "fail"]).nullable(),
    machine: z.enum(["pass", "fail", "unknown"]).nullable(),
  })
  .nullable();

const outcome = z.enum(OUTCOMES);

const runSide = z.object({
  id: z.string(),
  shortId: z.string(),
  setVersion: z.number().int(),
  tier: z.string(),
  mode: z.string(),
  workflowVersion: z.number().int(),
  environment: z.string(),
  judged: z
    .number()
    .int()
    .meta({ description: "Questions of the run with a human verdict (0: its human pass rate is null)" }),
  suggested: z
    .number()
    .int()
    .meta({ description: "Questions of the run with a machine suggestion (0: its machine pass rate is null)" }),
});
const rates = z.object({
  a: z.number().nullable().meta({ description: "null when the run has no verdict (human) or no suggestion (machine)" }),
  b: z.number().nullable(),
  delta: z.number().nullable().meta({ description: "b - a; null when either side is null" }),
  n: z.object({ a: z.number().int(), b: z.number().int() }).meta({
    description:
      "The questions each interval counts: with a human verdict (human) or a suggestion (machine); unjudged ones are not in n",
  }),
  interval: z
    .object({ a: IntervalOut, b: IntervalOut })
    .meta({ description: "Each run's 95 % Wilson interval of its passes over n (null when n is 0)" }),
});

export const CompareOut = z
  .object({
    runA: runSide,
    runB: runSide,
    warnings: z.array(z.object({ code: z.string(), message: z.string() })),
    summary: z.record(outcome, z.number().int()),
    machineSummary: z.record(outcome, z.number().int()),
    passRates: z.object({ human: rates, machine: rates }),
    paired: z
      .object({
        bothPass: z.number().int(),
        onlyA: z.number().int().meta({ description: "A pass / B fail (b of McNemar's test; outcome regressed)" }),
        onlyB: z.number().int().meta({ description: "A fail / B pass (c of McNemar's test; outcome fixed)" }),
        bothFail: z.number().int(),
        n: z.number().int().meta({ description: "Questions both runs have a human verdict for: the four cells added" }),
        pValue: z.number().min(0).max(1).meta({
          description:
            "Exact two-sided McNemar p-value: min(1, 2 P(X <= min(b, c))), X ~ Binomial(b + c, 0.5); 1 when b + c = 0",
        }),
        significant: z.boolean().meta({ description: "pValue below 0.05" }),
        sentence: z.string().meta({
          description:
            'For people: "B is better on 3 questions and worse on 1; the difference is not significant (p = 0.63)"',
        }),
      })
      .nullable()
      .meta({
        description:
          "The paired table over the questions both runs have a human verdict for, only on two runs of the same set version; null otherwise (pairedUnavailable says why)",
      }),
    pairedUnavailable: z
      .object({
        code: z.enum(["DIFFERENT_SET", "DIFFERENT_SET_VERSION"]),
        reason: z.string(),
      })
      .nullable()
      .meta({
        description:
          "Why there is no paired table (the runs are of different sets or set versions: compare passRates with their intervals instead); null when paired is given",
      }),
    questions: z
      .array(
        z.object({
          key: z.string(),
          question: z.string(),
          classification: z.string(),
          a: sideOut,
          b: sideOut,
          outcome,
          machineOutcome: outcome,
          badCase: z
            .object({
              id: z.string(),
              status: z.enum(BAD_CASE_STATUSES),
              result: z.enum(["fixed", "still_failing", "not_judged", "not_in_b"]),
            })
            .nullable()
            .meta({ description: "Run A's Bad Case for this question, and what run B's human verdict says about it" }),
        }),
      )
      .meta({
        description:
          "The questions of the page (every question after the filters when no `limit` is given), in run A's order then run B's",
      }),
    page: z
      .object({
        offset: z.number().int(),
        limit: z
          .number()
          .int()
          .nullable()
          .meta({ description: "The page size asked for; null: every question after the filters" }),
        total: z.number().int().meta({ description: "Questions left after the outcome and text filters (all pages)" }),
        matching: z
          .record(outcome, z.number().int())
          .meta({ description: "Questions per outcome under the text filter `q` (equal to summary without it)" }),
      })
      .meta({
        description:
          "Where `questions` is in the filtered list; summary, machineSummary and badCases always count the whole comparison",
      }),
    badCases: z
      .object({
        fixed: z.number().int(),
        stillFailing: z.number().int(),
        notJudged: z.number().int(),
        notInB: z.number().int(),
      })
      .meta({ description: "Run A's Bad Cases by what run B's human verdict says (the whole comparison)" }),
  })
  .meta({ id: "EvalCompare" });

const manyRate = (who: "human" | "machine") =>
  z
    .object({
      pass: z.number().int(),
      n: who === "human" ? humanN : machineN,
      rate: z
        .number()
        .nullable()
        .meta({ description: "pass / n (the judged or suggested questions); null when n is 0" }),
      interval: IntervalOut,
    })
    .meta({ description: `The run's ${who === "human" ? "human-confirmed" : "machine"} pass rate with its interval` });

const manyCell = z
  .object({
    itemId: z.string(),
    human: z.enum(["pass", "fail"]).nullable().meta({ description: "The human verdict (null: not judged yet)" }),
    machine: z.enum(["pass", "fail", "unknown"]).nullable().meta({ description: "The machine suggestion" }),
  })
  .nullable()
  .meta({ description: "The question in one run, in the order of `runs`; null when the run does not have it" });

/** The many-run form of the comparison (server/eval/reports/compare-many.ts). */
export const CompareManyOut = z
  .object({
    set: z.object({ id: z.string(), name: z.string(), version: z.number().int() }),
    runs: z
      .array(
        z.object({
          id: z.string(),
          shortId: z.string(),
          createdAt: date,
          status: z.string(),
          setVersion: z.number().int(),
          tier: z.string(),
          mode: z.string(),
          workflowVersion: z.number().int().meta({ description: "The agent version the run answered with" }),
          environment: z.string(),
          questions: z.number().int(),
          human: manyRate("human"),
          machine: manyRate("machine"),
          note: z
            .literal(NO_VERDICTS_YET)
            .nullable()
            .meta({ description: `"${NO_VERDICTS_YET}" when the run has no human verdict (its rate is null)` }),
        }),
      )
      .meta({ description: "The runs, oldest first (by creation): the last is the latest" }),
    counts: z.object({
      questions: z.number().int().meta({ description: "Questions of the comparison (all, before the filters)" }),
      changed: z.number().int().meta({ description: "Questions whose human verdict changes across the runs" }),
      failingLatest: z.number().int().meta({ description: "Questions the latest run's human verdict fails" }),
    }),
    questions: z
      .array(
        z.object({
          key: z.string(),
          question: z.string(),
          classification: z.string(),
          cells: z.array(manyCell),
          changed: z
            .boolean()
            .meta({ description: "The human verdicts include a pass and a fail (runs without a verdict not counted)" }),
          failingLatest: z.boolean().meta({ description: "The latest run's human verdict is fail" }),
        }),
      )
      .meta({ description: "The questions of the page after the filters, in the oldest run's order" }),
    page: z.object({
      offset: z.number().int(),
      limit: z.number().int().nullable(),
      total: z.number().int().meta({ description: "Questions left after the filters (all pages)" }),
    }),
  })
  .meta({ id: "EvalCompareMany" });

/** Either form's answer: `runA`/`runB` for run_a + run_b, `runs` for the many-run form. */
export const CompareAnyOut = z.union([CompareOut, CompareManyOut]);

/** A set's runs over time (server/eval/reports/trend.ts). */
export const TrendOut = z
  .object({
    set: z.object({ id: z.string(), name: z.string(), kind: z.enum(SET_KINDS), agentId: z.string() }),
    series: z
      .array(
        z.object({
          setVersion: z.number().int(),
          tier: z.enum(TIERS),
          points: z.array(
            z.object({
              runId: z.string(),
              shortId: z.string(),
              createdAt: date,
              status: z.string(),
              mode: z.string(),
              workflowVersion: z.number().int().meta({ description: "The agent version the run answered with" }),
              questions: z.number().int(),
              pass: z.number().int().meta({ description: "Human-confirmed passes" }),
              n: humanN,
              rate: z.number().nullable().meta({ description: "pass / n; null when nothing is judged yet" }),
              interval: IntervalOut,
            }),
          ),
        }),
      )
      .meta({ description: "One series per set version and tier, each run a point, oldest first" }),
    runs: z.number().int().meta({ description: "Runs counted (every series' points)" }),
  })
  .meta({ id: "EvalSetTrend" });

const usageNumbers = {
  runs: z.number().int(),
  answeredItems: z.number().int(),
  answering: z.object({
    modelCalls: z.number().int(),
    promptTokens: z.number().int(),
    completionTokens: z.number().int(),
    tokens: z.number().int(),
  }),
  judging: z.object({ modelCalls: z.number().int(), tokens: z.number().int() }),
};

export const UsageOut = z
  .object({
    from: z.string(),
    to: z.string(),
    agentId: z.string().nullable(),
    totals: z.object({ ...usageNumbers, cost: CostOut }),
    days: z.array(
      z.object({
        day: z.string(),
        agentId: z.string(),
        agentName: z.string().nullable(),
        ...usageNumbers,
        cost: CostOut,
      }),
    ),
  })
  .meta({ id: "EvalUsage" });

// ---------------------------------------------------------------- judge calibration (reports/calibration.ts)

export const CALIBRATION_AGENT_JUDGE = /^agent:[A-Za-z0-9_-]{1,64}@[1-9][0-9]{0,8}$/;

export const CalibrationQuery = z.object({
  judge: z
    .union([
      z.enum(["builtin", "llm"]),
      z.string().regex(CALIBRATION_AGENT_JUDGE, "must be builtin, llm or agent:<agentId>@<version> (a version number)"),
    ])
    .optional()
    .meta({
      description:
        "The judge to calibrate: builtin, llm or agent:<agentId>@<version> (a pinned version); default the set's current judge",
    }),
});

const CalibrationFigure = z.object({
  value: z.number().nullable().meta({
    description: "count / of, 4 decimals (kappa: Cohen's kappa); null when of is 0 (or kappa has no variance)",
  }),
  count: z.number().int().meta({ description: "The numerator (kappa: the agreeing pairs)" }),
  of: z.number().int().meta({ description: "The denominator (kappa: the pairs)" }),
});

const calibrationFigures = {
  n: z.number().int().meta({ description: "Human-typed items this judge has a suggestion on (unknown included)" }),
  pairs: z.number().int().meta({ description: "Of those, items with a pass or fail suggestion (the matrix's total)" }),
  matrix: z
    .object({
      passPass: z.number().int(),
      passFail: z.number().int(),
      failPass: z.number().int(),
      failFail: z.number().int(),
    })
    .meta({ description: "Judge first, the person second: passFail = the judge said pass, the person fail" }),
  agreement: CalibrationFigure.meta({ description: "(passPass + failFail) / pairs" }),
  kappa: CalibrationFigure.meta({ description: "Cohen's kappa over the pairs" }),
  failPrecision: CalibrationFigure.meta({
    description: "failFail / the judge's fails: how often its fail is a real one",
  }),
  failRecall: CalibrationFigure.meta({
    description: "failFail / the people's fails among the pairs: how many it catches",
  }),
  unknownRate: CalibrationFigure.meta({ description: "unknown suggestions / n" }),
  note: z.string().nullable().meta({
    description:
      '"too few verdicts to judge the judge" under 20 items (with the reason when there are none), kappa\'s no-variance note, else null',
  }),
};

export const CalibrationOut = z
  .object({
    set: z.object({ id: z.string(), name: z.string() }),
    judge: JudgeRefOut,
    currentJudge: z.string().meta({ description: "The key of the set's current judge" }),
    humanTyped: z
      .number()
      .int()
      .meta({ description: "Items of the set's runs with a human-typed verdict (adopted verdicts excluded)" }),
    ...calibrationFigures,
    byScenario: z
      .array(z.object({ name: z.string().meta({ description: "The sample's classification" }), ...calibrationFigures }))
      .meta({ description: "The judge's figures per scenario (the sample's classification; '(none)' without one)" }),
    byAttribution: z
      .array(z.object({ name: z.string().meta({ description: "The fail's attribution" }), ...calibrationFigures }))
      .meta({ description: "The judge's figures over the human fails, per attribution ('(none)' without one)" }),
    judges: z
      .array(z.object({ judge: JudgeRefOut, ...calibrationFigures }))
      .meta({ description: "Every judge with suggestions on these items, side by side (the calibrated one first)" }),
    disagreements: z
      .array(
        z.object({
          itemId: z.string(),
          runId: z.string(),
          key: z.string().meta({ description: "The sample's key" }),
          human: z.enum(["pass", "fail"]),
          verdicts: z
            .record(z.string(), z.enum(["pass", "fail", "unknown"]))
            .meta({ description: "Each judge's suggestion, keyed by judge key" }),
        }),
      )
      .meta({ description: "Items where one judge says pass and another fail (at most 200)" }),
    disagreementsTotal: z.number().int(),
  })
  .meta({ id: "EvalCalibration" });
