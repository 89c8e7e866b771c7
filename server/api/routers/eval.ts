import { env } from "../../core/env";
import { procedure, router } from "../trpc";
import {
  BoardQuery,
  ConfirmParams,
  LeadCountsQuery,
  confirmSample,
  leadsPerDay,
  unconfirmSample,
  loopBoard,
  ReplayInput,
  ShadowConfigInput,
  ShadowParams,
  ShadowReportQuery,
  DisagreementsQuery,
  listDisagreements,
  publishShadowCandidate,
  getShadowConfig,
  putShadowConfig,
  replayShadow,
  shadowReport,
  DismissLeadInput,
  LeadsQuery,
  PoolAddInput,
  PoolParams,
  TraceParam,
  addTraceToPool,
  dismissLead,
  listLeads,
  restoreLead,
  BadCaseParams,
  CompareQuery,
  CreateBadCaseInput,
  CreateRunInput,
  CreateSetInput,
  CreateVersionInput,
  ExportQuery,
  ImportInput,
  ListBadCasesQuery,
  ListItemsQuery,
  ListRunsQuery,
  ListSamplesQuery,
  ListSetsQuery,
  PastedAnswersInput,
  QueueFilterQuery,
  queueNeighbours,
  reviewProgress,
  RerunInput,
  RunItemParams,
  RunParams,
  SampleInput,
  SampleParams,
  SamplePatch,
  SetParams,
  SetVersionParams,
  UpdateBadCaseInput,
  UpdateSetInput,
  UpdateVersionInput,
  UsageQuery,
  VerdictInput,
  UndoVerdictInput,
  undoVerdict,
  addSample,
  adoptSuggestions,
  cancelRun,
  closeAnswering,
  compare,
  createBadCase,
  createBadCasesForRun,
  createRun,
  createSet,
  createVersion,
  deleteSample,
  deleteSet,
  deleteVersion,
  evalVocabulary,
  exportVersion,
  freezeVersion,
  getBadCase,
  getItem,
  getRun,
  getSample,
  getSet,
  getVersion,
  importSamples,
  listBadCases,
  listItems,
  listQueue,
  listRuns,
  listSamples,
  listSets,
  rerunRun,
  resuggestRun,
  runGate,
  runReport,
  setVerdict,
  startRun,
  submitPastedAnswers,
  updateBadCase,
  updateSample,
  updateSet,
  updateVersion,
  usage,
} from "../../eval";

/**
 * The evaluation center for the web UI: the same service functions as /api/eval/* (REST) with the same schemas.
 * Input convention (all routers): the REST path parameters under their REST names (`id`, `version`, `itemId`), the
 * REST body whole under `body`, the REST query whole under `query`; an operation without path parameters takes its
 * body or query as the input itself. Nothing is copied field by field, so a field added to a schema reaches both
 * faces (server/api/faces.test.ts checks it).
 */
export const evalRouter = router({
  meta: procedure("eval.read").query(() => evalVocabulary()),
  sets: router({
    list: procedure("eval.read")
      .input(ListSetsQuery.optional())
      .query(({ ctx, input }) => listSets(ctx.db, input ?? {})),
    get: procedure("eval.read")
      .input(SetParams)
      .query(({ ctx, input }) => getSet(ctx.db, input.id)),
    create: procedure("eval.manage")
      .input(CreateSetInput)
      .mutation(({ ctx, input }) => createSet(ctx.db, input, ctx.principal)),
    update: procedure("eval.manage")
      .input(SetParams.extend({ body: UpdateSetInput }))
      .mutation(({ ctx, input }) => updateSet(ctx.db, input.id, input.body)),
    delete: procedure("eval.manage")
      .input(SetParams)
      .mutation(async ({ ctx, input }) => {
        await deleteSet(ctx.db, input.id);
        return { deleted: true };
      }),
  }),
  versions: router({
    get: procedure("eval.read")
      .input(SetVersionParams)
      .query(({ ctx, input }) => getVersion(ctx.db, input.id, input.version)),
    create: procedure("eval.manage")
      .input(SetParams.extend({ body: CreateVersionInput }))
      .mutation(({ ctx, input }) => createVersion(ctx.db, input.id, input.body, ctx.principal)),
    update: procedure("eval.manage")
      .input(SetVersionParams.extend({ body: UpdateVersionInput }))
      .mutation(({ ctx, input }) => updateVersion(ctx.db, input.id, input.version, input.body)),
    freeze: procedure("eval.manage")
      .input(SetVersionParams)
      .mutation(({ ctx, input }) => freezeVersion(ctx.db, input.id, input.version, ctx.principal)),
    delete: procedure("eval.manage")
      .input(SetVersionParams)
      .mutation(async ({ ctx, input }) => {
        await deleteVersion(ctx.db, input.id, input.version);
        return { deleted: true };
      }),
    import: procedure("eval.manage")
      .input(SetVersionParams.extend({ body: ImportInput }))
      .mutation(({ ctx, input }) => importSamples(ctx.db, input.id, input.version, input.body)),
    export: procedure("eval.read")
      .input(SetVersionParams.extend({ query: ExportQuery }))
      .query(({ ctx, input }) => exportVersion(ctx.db, input.id, input.version, input.query.format)),
  }),
  samples: router({
    list: procedure("eval.read")
      .input(SetVersionParams.extend({ query: ListSamplesQuery.optional() }))
      .query(({ ctx, input }) => listSamples(ctx.db, input.id, input.version, input.query ?? {})),
    get: procedure("eval.read")
      .input(SampleParams)
      .query(({ ctx, input }) => getSample(ctx.db, input.id)),
    add: procedure("eval.manage")
      .input(SetVersionParams.extend({ body: SampleInput }))
      .mutation(({ ctx, input }) => addSample(ctx.db, input.id, input.version, input.body)),
    update: procedure("eval.manage")
      .input(SampleParams.extend({ body: SamplePatch }))
      .mutation(({ ctx, input }) => updateSample(ctx.db, input.id, input.body)),
    delete: procedure("eval.manage")
      .input(SampleParams)
      .mutation(async ({ ctx, input }) => {
        await deleteSample(ctx.db, input.id);
        return { deleted: true };
      }),
  }),
  runs: router({
    list: procedure("eval.read")
      .input(ListRunsQuery.optional())
      .query(({ ctx, input }) => listRuns(ctx.db, input ?? {})),
    get: procedure("eval.read")
      .input(RunParams)
      .query(({ ctx, input }) => getRun(ctx.db, input.id)),
    create: procedure("eval.manage")
      .input(CreateRunInput)
      .mutation(({ ctx, input }) => createRun(ctx.db, input, ctx.principal)),
    start: procedure("eval.manage")
      .input(RunParams)
      .mutation(({ ctx, input }) => startRun(ctx.db, input.id)),
    cancel: procedure("eval.manage")
      .input(RunParams)
      .mutation(({ ctx, input }) => cancelRun(ctx.db, input.id)),
    close: procedure("eval.manage")
      .input(RunParams)
      .mutation(({ ctx, input }) => closeAnswering(ctx.db, input.id)),
    rerun: procedure("eval.manage")
      .input(RunParams.extend({ body: RerunInput }))
      .mutation(({ ctx, input }) => rerunRun(ctx.db, input.id, input.body, ctx.principal)),
    answers: procedure("eval.manage")
      .input(RunParams.extend({ body: PastedAnswersInput }))
      .mutation(({ ctx, input }) => submitPastedAnswers(ctx.db, input.id, input.body)),
    suggest: procedure("eval.manage")
      .input(RunParams)
      .mutation(({ ctx, input }) => resuggestRun(ctx.db, input.id)),
    report: procedure("eval.read")
      .input(RunParams)
      .query(({ ctx, input }) => runReport(ctx.db, input.id)),
    gate: procedure("eval.read")
      .input(RunParams)
      .query(({ ctx, input }) => runGate(ctx.db, input.id)),
    compare: procedure("eval.read")
      .input(CompareQuery)
      .query(({ ctx, input }) => compare(ctx.db, input)),
    adopt: procedure("eval.annotate")
      .input(RunParams)
      .mutation(({ ctx, input }) => adoptSuggestions(ctx.db, input.id, ctx.principal)),
    badCases: procedure("eval.annotate")
      .input(RunParams)
      .mutation(({ ctx, input }) => createBadCasesForRun(ctx.db, input.id, ctx.principal)),
  }),
  items: router({
    list: procedure("eval.read")
      .input(RunParams.extend({ query: ListItemsQuery.optional() }))
      .query(({ ctx, input }) => listItems(ctx.db, input.id, input.query ?? {})),
    queue: procedure("eval.read")
      .input(RunParams.extend({ query: ListItemsQuery.optional() }))
      .query(({ ctx, input }) => listQueue(ctx.db, input.id, input.query ?? {})),
    get: procedure("eval.read")
      .input(RunItemParams)
      .query(({ ctx, input }) => getItem(ctx.db, input.id, input.itemId)),
    progress: procedure("eval.read")
      .input(RunParams)
      .query(({ ctx, input }) => reviewProgress(ctx.db, input.id)),
    neighbours: procedure("eval.read")
      .input(RunItemParams.extend({ query: QueueFilterQuery.optional() }))
      .query(({ ctx, input }) => queueNeighbours(ctx.db, input.id, input.itemId, input.query ?? {})),
    verdict: procedure("eval.annotate")
      .input(RunItemParams.extend({ body: VerdictInput }))
      .mutation(({ ctx, input }) => setVerdict(ctx.db, input.id, input.itemId, input.body, ctx.principal)),
    undoVerdict: procedure("eval.annotate")
      .input(RunItemParams.extend({ body: UndoVerdictInput }))
      .mutation(({ ctx, input }) => undoVerdict(ctx.db, input.id, input.itemId, input.body, ctx.principal)),
    badCase: procedure("eval.annotate")
      .input(RunItemParams.extend({ body: CreateBadCaseInput }))
      .mutation(({ ctx, input }) => createBadCase(ctx.db, input.id, input.itemId, input.body, ctx.principal)),
  }),
  badCases: router({
    list: procedure("eval.read")
      .input(ListBadCasesQuery.optional())
      .query(({ ctx, input }) => listBadCases(ctx.db, input ?? {})),
    get: procedure("eval.read")
      .input(BadCaseParams)
      .query(({ ctx, input }) => getBadCase(ctx.db, input.id)),
    update: procedure("eval.annotate")
      .input(BadCaseParams.extend({ body: UpdateBadCaseInput }))
      .mutation(({ ctx, input }) => updateBadCase(ctx.db, input.id, input.body, ctx.principal)),
  }),
  usage: procedure("eval.read")
    .input(UsageQuery.optional())
    .query(({ ctx, input }) => usage(ctx.db, input ?? {})),
  shadow: router({
    get: procedure("eval.read")
      .input(ShadowParams)
      .query(({ ctx, input }) => getShadowConfig(ctx.db, input.agentId)),
    put: procedure("eval.manage")
      .input(ShadowParams.extend({ body: ShadowConfigInput }))
      .mutation(({ ctx, input }) =>
        putShadowConfig(ctx.db, input.agentId, input.body, ctx.principal, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
      ),
    replay: procedure("eval.manage")
      .input(ShadowParams.extend({ body: ReplayInput }))
      .mutation(({ ctx, input }) => replayShadow(ctx.db, input.agentId, input.body)),
    report: procedure("eval.read")
      .input(ShadowParams.extend({ query: ShadowReportQuery.optional() }))
      .query(({ ctx, input }) => shadowReport(ctx.db, input.agentId, input.query ?? {})),
    disagreements: procedure("eval.read")
      .input(ShadowParams.extend({ query: DisagreementsQuery.optional() }))
      .query(({ ctx, input }) => listDisagreements(ctx.db, input.agentId, input.query ?? {})),
    publish: procedure("builder.write")
      .input(ShadowParams)
      .mutation(({ ctx, input }) =>
        publishShadowCandidate(ctx.db, input.agentId, ctx.principal, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
      ),
  }),
  online: router({
    board: procedure("eval.read")
      .input(BoardQuery)
      .query(({ ctx, input }) => loopBoard(ctx.db, input)),
    leads: procedure("eval.read")
      .input(LeadsQuery)
      .query(({ ctx, input }) => listLeads(ctx.db, input)),
    leadCounts: procedure("eval.read")
      .input(LeadCountsQuery)
      .query(({ ctx, input }) => leadsPerDay(ctx.db, input)),
    confirm: procedure("eval.manage")
      .input(ConfirmParams)
      .mutation(({ ctx, input }) => confirmSample(ctx.db, input.id, ctx.principal)),
    unconfirm: procedure("eval.manage")
      .input(ConfirmParams)
      .mutation(({ ctx, input }) => unconfirmSample(ctx.db, input.id)),
    dismiss: procedure("eval.manage")
      .input(TraceParam.extend({ body: DismissLeadInput }))
      .mutation(({ ctx, input }) => dismissLead(ctx.db, input.traceId, input.body, ctx.principal)),
    restore: procedure("eval.manage")
      .input(TraceParam)
      .mutation(({ ctx, input }) => restoreLead(ctx.db, input.traceId)),
    addToPool: procedure("eval.manage")
      .input(PoolParams.extend({ body: PoolAddInput }))
      .mutation(({ ctx, input }) => addTraceToPool(ctx.db, input.id, input.body, ctx.principal)),
  }),
});
