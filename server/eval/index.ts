/**
 * The evaluation center: sets, versions, samples (import/export), runs (in-platform answering through a durable
 * pg-boss queue, or pasted answers), machine suggestions (rules, judge, guardrails), human verdicts, Bad Cases,
 * reports, comparison, usage and the gate. See README.md.
 */
export * from "./sets/schemas";
export * from "./runs/schemas";
export * from "./suggestions/schemas";
export * from "./verdicts/schemas";
export * from "./reports/schemas";
export * from "./online/schemas";
export * from "./shadow/schemas";
export { EVAL_LIMITS } from "./limits";
export {
  evalVocabulary,
  EvalVocabularyOut,
  RULE_TYPES,
  TIER_MEANINGS,
  RUN_LIFECYCLE,
  ANSWERING_RULES,
  SCRIPT_RULES,
  SUGGESTION_RULES,
  REVIEW_RULES,
  type EvalVocabulary,
} from "./vocabulary";
export { EVAL_ERROR_CODES } from "./codes";
export { evaluateGate, type GateInput, type GateResult } from "./reports/gate";
export { agreement, type Agreement } from "./reports/kappa";
export { compareRuns, type CompareResult } from "./reports/compare";
export {
  coverageJudge,
  llmJudge,
  JUDGE_RUBRIC,
  type JudgeProvider,
  type JudgeResult,
  type PointCoverage,
} from "./suggestions/judge";
export { evaluateAssertions, evaluateAssertion, type RuleResult } from "./suggestions/rules";
export { computeFlags, type Flag } from "./suggestions/guardrails";
export {
  combineSuggestion,
  needsSpotCheck,
  inferAttribution,
  BLOCKING_FLAGS,
  type Suggestion,
} from "./suggestions/suggest";
export { parseSampleFile, exportSamples, SAMPLE_COLUMNS, type SampleDoc } from "./sets/io";
export { parseAnswerRows } from "./runs/answer-rows";
export type { RowError } from "./sets/records";
export { checkWaveCSize, WAVE_C_DEFAULTS } from "./reports/wave-c";
export {
  createSet,
  listSets,
  getSet,
  updateSet,
  deleteSet,
  createVersion,
  getVersion,
  updateVersion,
  freezeVersion,
  deleteVersion,
} from "./sets/sets";
export {
  listSamples,
  addSample,
  getSample,
  updateSample,
  deleteSample,
  importSamples,
  exportVersion,
} from "./sets/samples";
export { createRun, rerunRun, getRun, listRuns, startRun, cancelRun } from "./runs/runs";
export { closeAnswering, submitPastedAnswers, resuggestRun } from "./runs/pasted";
export { listItems, listQueue, reviewProgress, queueNeighbours, getItem } from "./runs/items";
export {
  claimNextItem,
  reserveItem,
  releaseItem,
  assignItems,
  peopleProgress,
  progressWithPeople,
} from "./runs/reservations";
export { getAssignment } from "./runs/assignees";
export { RESERVATION_MS } from "./runs/reservation-rules";
export { setVerdict, undoVerdict, adoptSuggestions, adjudicate } from "./verdicts/verdicts";
export { listAudits } from "./verdicts/audit";
export { drawAuditSample, auditSampleSize, AUDIT_ALGORITHM } from "./verdicts/audit-sample";
export { createBadCase, createBadCasesForRun, listBadCases, getBadCase, updateBadCase } from "./verdicts/bad-cases";
export { runReport, runGate, buildReport } from "./reports/reports";
export { compare, compareTwo } from "./reports/comparison";
export { setTrend } from "./reports/trend";
export { setCalibration } from "./reports/set-calibration";
export { updateSetJudged } from "./reports/set-judge";
export { getJob, comparisonItemDone, finishComparison } from "./reports/judge-comparison";
export { usage } from "./reports/usage";
export { modelPrices, setModelPrices } from "./runs/prices";
export { loopBoard } from "./online/board";
export { listLeads, leadsPerDay, COUNT_SCAN, dismissLead, restoreLead } from "./online/leads";
export { confirmSample, unconfirmSample, addTraceToPool } from "./online/pool";
export { getOnlineJudging, putOnlineJudging, judgeOnlineTrace } from "./online/judging";
export {
  listAlertRules,
  createAlertRule,
  updateAlertRule,
  deleteAlertRule,
  listAlerts,
  acknowledgeAlert,
  evaluateAlerts,
} from "./online/alerts";
export { sampled, samplePoint } from "./online/sampler";
export { EvalQueue } from "./runs/queue";
export { startEvalWorker, registerEvalQueue, getEvalQueue } from "./runs/worker";
export { EVAL_QUEUE, queueDepths, type QueueDepth } from "./runs/queue-jobs";
export { getShadowConfig, putShadowConfig } from "./shadow/config";
export { replayShadow, shadowReport, listDisagreements } from "./shadow/report";
export { publishShadowCandidate } from "./shadow/publish";
export { shadowOnlineAnswer, enqueueShadow, flushShadowJobs } from "./shadow/jobs";
export { shadowTrace, intentSubworkflow, liveIntentOf } from "./shadow/intent";
