/**
 * The evaluation center: sets, versions, samples (import/export), runs (in-platform answering through a durable
 * pg-boss queue, or pasted answers), machine suggestions (rules, judge, guardrails), human verdicts, Bad Cases,
 * reports, comparison, usage and the gate. See README.md.
 */
export * from "./schemas";
export { EVAL_LIMITS } from "./limits";
export { evalVocabulary, RULE_TYPES, TIER_MEANINGS, RUN_LIFECYCLE, type EvalVocabulary } from "./vocabulary";
export { EVAL_ERROR_CODES } from "./codes";
export { evaluateGate, type GateInput, type GateResult } from "./gate";
export { agreement, type Agreement } from "./kappa";
export { compareRuns, type CompareResult } from "./compare";
export {
  coverageJudge,
  llmJudge,
  JUDGE_RUBRIC,
  type JudgeProvider,
  type JudgeResult,
  type PointCoverage,
} from "./judge";
export { evaluateAssertions, evaluateAssertion, type RuleResult } from "./rules";
export { computeFlags, type Flag } from "./guardrails";
export { combineSuggestion, needsSpotCheck, inferAttribution, BLOCKING_FLAGS, type Suggestion } from "./suggest";
export { parseSampleFile, exportSamples, parseAnswerRows, SAMPLE_COLUMNS, type RowError, type SampleDoc } from "./io";
export { checkWaveCSize, WAVE_C_DEFAULTS } from "./wave-c";
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
  listSamples,
  addSample,
  getSample,
  updateSample,
  deleteSample,
  importSamples,
  exportVersion,
} from "./sets";
export {
  createRun,
  rerunRun,
  getRun,
  listRuns,
  startRun,
  cancelRun,
  closeAnswering,
  listItems,
  listQueue,
  reviewProgress,
  queueNeighbours,
  getItem,
  submitPastedAnswers,
  resuggestRun,
} from "./runs";
export {
  setVerdict,
  undoVerdict,
  adoptSuggestions,
  createBadCase,
  createBadCasesForRun,
  listBadCases,
  getBadCase,
  updateBadCase,
} from "./verdicts";
export { runReport, runGate, compare, usage, buildReport } from "./reports";
export {
  loopBoard,
  BoardQuery,
  BOARD_STAGES,
  listLeads,
  leadsPerDay,
  LeadCountsQuery,
  COUNT_SCAN,
  confirmSample,
  unconfirmSample,
  ConfirmParams,
  dismissLead,
  restoreLead,
  addTraceToPool,
  LeadsQuery,
  DismissLeadInput,
  TraceParam,
  PoolAddInput,
  PoolParams,
} from "./online";
export { EvalQueue, startEvalWorker, registerEvalQueue, getEvalQueue, EVAL_QUEUE } from "./queue";
export {
  getShadowConfig,
  putShadowConfig,
  replayShadow,
  shadowReport,
  listDisagreements,
  publishShadowCandidate,
  shadowOnlineAnswer,
  enqueueShadow,
  flushShadowJobs,
  shadowTrace,
  intentSubworkflow,
  liveIntentOf,
  ShadowConfigInput,
  ShadowParams,
  ReplayInput,
  ShadowReportQuery,
  DisagreementsQuery,
  SHADOW_LIMITS,
} from "./shadow";
