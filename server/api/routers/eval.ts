import { z } from "zod";
import { IdParam } from "../../http/params";
import { procedure, router } from "../trpc";
import {
  ATTRIBUTIONS,
  CompareQuery,
  CreateBadCaseInput,
  CreateRunInput,
  CreateSetInput,
  CreateVersionInput,
  EVAL_LIMITS,
  GUARDRAIL_FLAGS,
  ImportFormat,
  ImportInput,
  ListBadCasesQuery,
  ListItemsQuery,
  ListRunsQuery,
  ListSetsQuery,
  PastedAnswersInput,
  RerunInput,
  SampleInput,
  SamplePatch,
  UpdateBadCaseInput,
  UpdateSetInput,
  UpdateVersionInput,
  UsageQuery,
  VerdictInput,
  addSample,
  adoptSuggestions,
  cancelRun,
  compare,
  createBadCase,
  createBadCasesForRun,
  createRun,
  createSet,
  createVersion,
  deleteSample,
  deleteSet,
  deleteVersion,
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

/** The evaluation center for the web UI: the same service functions as /api/eval/* (REST). */
const Id = IdParam;
const SetVersion = z.object({ setId: z.string().min(1).max(64), version: z.number().int().min(1) });
const RunId = z.object({ runId: z.string().min(1).max(64) });
const RunItem = RunId.extend({ itemId: z.string().min(1).max(64) });

export const evalRouter = router({
  meta: procedure("eval.read").query(() => ({ attributions: ATTRIBUTIONS, guardrailFlags: GUARDRAIL_FLAGS, limits: EVAL_LIMITS })),
  sets: router({
    list: procedure("eval.read").input(ListSetsQuery.optional()).query(({ ctx, input }) => listSets(ctx.db, input ?? {})),
    get: procedure("eval.read").input(Id).query(({ ctx, input }) => getSet(ctx.db, input.id)),
    create: procedure("eval.manage").input(CreateSetInput).mutation(({ ctx, input }) => createSet(ctx.db, input, ctx.principal)),
    update: procedure("eval.manage")
      .input(Id.extend({ patch: UpdateSetInput }))
      .mutation(({ ctx, input }) => updateSet(ctx.db, input.id, input.patch)),
    delete: procedure("eval.manage")
      .input(Id)
      .mutation(async ({ ctx, input }) => {
        await deleteSet(ctx.db, input.id);
        return { deleted: true };
      }),
  }),
  versions: router({
    get: procedure("eval.read").input(SetVersion).query(({ ctx, input }) => getVersion(ctx.db, input.setId, input.version)),
    create: procedure("eval.manage")
      .input(z.object({ setId: z.string().min(1).max(64) }).extend(CreateVersionInput.shape))
      .mutation(({ ctx, input }) => createVersion(ctx.db, input.setId, { from: input.from, empty: input.empty, note: input.note }, ctx.principal)),
    update: procedure("eval.manage")
      .input(SetVersion.extend({ patch: UpdateVersionInput }))
      .mutation(({ ctx, input }) => updateVersion(ctx.db, input.setId, input.version, input.patch)),
    freeze: procedure("eval.manage").input(SetVersion).mutation(({ ctx, input }) => freezeVersion(ctx.db, input.setId, input.version, ctx.principal)),
    delete: procedure("eval.manage")
      .input(SetVersion)
      .mutation(async ({ ctx, input }) => {
        await deleteVersion(ctx.db, input.setId, input.version);
        return { deleted: true };
      }),
    import: procedure("eval.manage")
      .input(SetVersion.extend(ImportInput.shape))
      .mutation(({ ctx, input }) => importSamples(ctx.db, input.setId, input.version, { format: input.format, content: input.content, mode: input.mode })),
    export: procedure("eval.read")
      .input(SetVersion.extend({ format: ImportFormat }))
      .query(({ ctx, input }) => exportVersion(ctx.db, input.setId, input.version, input.format)),
  }),
  samples: router({
    list: procedure("eval.read").input(SetVersion).query(({ ctx, input }) => listSamples(ctx.db, input.setId, input.version)),
    get: procedure("eval.read").input(Id).query(({ ctx, input }) => getSample(ctx.db, input.id)),
    add: procedure("eval.manage")
      .input(SetVersion.extend({ sample: SampleInput }))
      .mutation(({ ctx, input }) => addSample(ctx.db, input.setId, input.version, input.sample)),
    update: procedure("eval.manage")
      .input(Id.extend({ patch: SamplePatch }))
      .mutation(({ ctx, input }) => updateSample(ctx.db, input.id, input.patch)),
    delete: procedure("eval.manage")
      .input(Id)
      .mutation(async ({ ctx, input }) => {
        await deleteSample(ctx.db, input.id);
        return { deleted: true };
      }),
  }),
  runs: router({
    list: procedure("eval.read").input(ListRunsQuery.optional()).query(({ ctx, input }) => listRuns(ctx.db, input ?? {})),
    get: procedure("eval.read").input(RunId).query(({ ctx, input }) => getRun(ctx.db, input.runId)),
    create: procedure("eval.manage").input(CreateRunInput).mutation(({ ctx, input }) => createRun(ctx.db, input, ctx.principal)),
    start: procedure("eval.manage").input(RunId).mutation(({ ctx, input }) => startRun(ctx.db, input.runId)),
    cancel: procedure("eval.manage").input(RunId).mutation(({ ctx, input }) => cancelRun(ctx.db, input.runId)),
    rerun: procedure("eval.manage")
      .input(RunId.extend(RerunInput.shape))
      .mutation(({ ctx, input }) => rerunRun(ctx.db, input.runId, { environment: input.environment, agentVersion: input.agentVersion }, ctx.principal)),
    answers: procedure("eval.manage")
      .input(RunId.extend(PastedAnswersInput.shape))
      .mutation(({ ctx, input }) => submitPastedAnswers(ctx.db, input.runId, { answers: input.answers, format: input.format, content: input.content })),
    suggest: procedure("eval.manage").input(RunId).mutation(({ ctx, input }) => resuggestRun(ctx.db, input.runId)),
    report: procedure("eval.read").input(RunId).query(({ ctx, input }) => runReport(ctx.db, input.runId)),
    gate: procedure("eval.read").input(RunId).query(({ ctx, input }) => runGate(ctx.db, input.runId)),
    compare: procedure("eval.read").input(CompareQuery).query(({ ctx, input }) => compare(ctx.db, input)),
    adopt: procedure("eval.annotate").input(RunId).mutation(({ ctx, input }) => adoptSuggestions(ctx.db, input.runId, ctx.principal)),
    badCases: procedure("eval.annotate").input(RunId).mutation(({ ctx, input }) => createBadCasesForRun(ctx.db, input.runId, ctx.principal)),
  }),
  items: router({
    list: procedure("eval.read")
      .input(RunId.extend({ filter: ListItemsQuery.optional() }))
      .query(({ ctx, input }) => listItems(ctx.db, input.runId, input.filter ?? {})),
    get: procedure("eval.read").input(RunItem).query(({ ctx, input }) => getItem(ctx.db, input.runId, input.itemId)),
    verdict: procedure("eval.annotate")
      .input(RunItem.extend(VerdictInput.shape))
      .mutation(({ ctx, input }) =>
        setVerdict(ctx.db, input.runId, input.itemId, { verdict: input.verdict, basis: input.basis, attribution: input.attribution, classification: input.classification }, ctx.principal),
      ),
    badCase: procedure("eval.annotate")
      .input(RunItem.extend(CreateBadCaseInput.shape))
      .mutation(({ ctx, input }) => createBadCase(ctx.db, input.runId, input.itemId, { title: input.title, notes: input.notes }, ctx.principal)),
  }),
  badCases: router({
    list: procedure("eval.read").input(ListBadCasesQuery.optional()).query(({ ctx, input }) => listBadCases(ctx.db, input ?? {})),
    get: procedure("eval.read").input(Id).query(({ ctx, input }) => getBadCase(ctx.db, input.id)),
    update: procedure("eval.annotate")
      .input(Id.extend({ patch: UpdateBadCaseInput }))
      .mutation(({ ctx, input }) => updateBadCase(ctx.db, input.id, input.patch)),
  }),
  usage: procedure("eval.read").input(UsageQuery.optional()).query(({ ctx, input }) => usage(ctx.db, input ?? {})),
});
