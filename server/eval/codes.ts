/**
 * Stable error codes of the evaluation center with their one status (merged into ERROR_CODES in
 * server/http/error-codes.ts, rendered in /docs; `evalErrors` in ./errors.ts takes each status from here). Pure
 * data: no imports, so the REST face can include it without a cycle.
 */
export const EVAL_ERROR_CODES: Record<string, { status: number; description: string }> = {
  SET_VERSION_NOT_FROZEN: {
    status: 400,
    description: "A run can only be created from a frozen evaluation set version; freeze the version first.",
  },
  SET_VERSION_FROZEN: {
    status: 409,
    description: "The evaluation set version is frozen and immutable; create a new version (a copy) and edit that.",
  },
  SET_VERSION_INCOMPLETE: {
    status: 409,
    description:
      "The version cannot be frozen: it has no samples, or samples without expected points (details list them).",
  },
  SET_NOT_REGRESSION_POOL: {
    status: 409,
    description: "Online traces are added to regression-pool sets only, never to a golden set.",
  },
  TRACE_OTHER_AGENT: { status: 409, description: "The trace was answered by another agent than the evaluation set's." },
  SET_HAS_RUNS: {
    status: 409,
    description: "Runs reference this set or version; it cannot be deleted (runs are kept for history).",
  },
  IMPORT_INVALID: {
    status: 400,
    description: "The import has row errors; nothing was imported. Each detail is { row, field, message }.",
  },
  EVAL_LIMIT_EXCEEDED: {
    status: 413,
    description:
      "An evaluation limit was exceeded (samples per version, import size, answers per upload); details name the limit.",
  },
  MODEL_PRICES_FROM_ENV: {
    status: 409,
    description:
      "FLOWBENCH_MODEL_PRICES is set: the model price table comes from the environment and cannot be edited here; unset it first.",
  },
  RUN_STATE_CONFLICT: {
    status: 409,
    description: "The operation is not allowed in the run's current state (details carry the state).",
  },
  RUN_MODE_MISMATCH: {
    status: 409,
    description:
      "The operation needs the other evaluation mode (pasted answers sent to an in-platform run, closing answers of an in-platform run).",
  },
  ITEM_NOT_JUDGEABLE: {
    status: 409,
    description: "The item has no answer yet (pending, answering or cancelled): it cannot receive a verdict.",
  },
  VERDICT_CONFLICT: {
    status: 409,
    description:
      "Another verdict was written to the item since the version you sent as expectedVersion; nothing was written (details carry the current verdict and version).",
  },
  VERDICT_NOT_UNDOABLE: {
    status: 409,
    description:
      "Undo takes back only the caller's own last typed verdict on the item, one step: the item's last change is someone else's, an adoption, or already an undo (nothing was written).",
  },
  VERDICT_BASIS_REQUIRED: {
    status: 400,
    description:
      "A fail verdict needs a basis: a short text saying what is wrong (an adjudication needs one whatever it decides).",
  },
  ITEM_REVIEWS_COMPLETE: {
    status: 409,
    description:
      "The item already has every review it needs from other people (the run's reviewsPerItem); a dispute is decided by adjudication (nothing was written).",
  },
  ITEM_ADJUDICATED: {
    status: 409,
    description:
      "An adjudicator has decided the item and their verdict is final: no further reviews, changes or undo (details carry the verdict).",
  },
  ITEM_NOT_DISPUTED: {
    status: 409,
    description:
      "Only a disputed item (its reviewers disagree) can be adjudicated: the item's reviews are missing, they agree, or its run has one reviewer per item.",
  },
  ADJUDICATION_CONFLICT: {
    status: 409,
    description:
      "Another adjudicator decided the item first; nothing was written (details carry the winner's verdict, who and when).",
  },
  VERDICT_ATTRIBUTION_REQUIRED: {
    status: 400,
    description: "A fail verdict needs an attribution: the failure point in the chain (see GET /api/eval/meta).",
  },
  JUDGE_NOT_A_JUDGE: {
    status: 400,
    description:
      "The judge chosen is an agent of kind agent: a set's judge (or a re-judging's) must be an agent of kind judge, whose workflow follows the judge contract.",
  },
  JUDGE_NEEDS_POINTS: {
    status: 400,
    description:
      "The built-in judge checks an answer against expected points, which online answers do not have: online judging takes the LLM judge (its reference-free rubric) or a judge agent.",
  },
  JUDGE_AGREEMENT_DROP: {
    status: 409,
    description:
      "Switching a set's judge was refused: on the set's human-typed verdicts (at least 20) the candidate's kappa is more than 0.05 below the current judge's, or its fail recall more than 0.05 lower, or either is none where the current judge has one (the candidate answered unknown where it decided). details[0] has both judges' figures; send force: true with a reason to switch anyway.",
  },
  JUDGE_COMPARISON_SUPERSEDED: {
    status: 409,
    description:
      "Not an HTTP answer: the error of a judge comparison job (GET /api/eval/jobs/{id}) that a later judge request on its set replaced.",
  },
  JUDGE_VERSION_NOT_FOUND: {
    status: 404,
    description: "The judge agent, or the version of it the judge names, does not exist.",
  },
  BAD_CASE_REQUIRES_FAIL: { status: 409, description: "Only an item whose verdict is fail can become a Bad Case." },
  SHADOW_NOT_CONFIGURED: {
    status: 409,
    description: "The agent has no intent-shadow configuration yet: PUT /api/eval/shadow/{agentId} first.",
  },
  RUNS_NOT_COMPARABLE: {
    status: 400,
    description:
      "A many-run comparison (GET /api/eval/runs/compare?run=…&run=…) takes runs of one agent on one set version; the message names the runs that differ. Details: { run, field (agent or setVersion), value } per run. Two runs of different versions are compared with run_a and run_b.",
  },
  BAD_CASE_NOT_VERIFIED: {
    status: 409,
    description:
      "A Bad Case is verified only with evidence: a later run of its set answered in the platform (not pasted) by an agent version newer than the one it was found with, with a human pass on its question; or a manager's reason (eval.manage). Fix the agent, re-run in the platform, judge, then verify. Details: { key, foundInVersion, latestPass } (the newest later pass, which does not count).",
  },
};
