import { z } from "zod";
import { IdParam } from "../../http/params";
import { procedure, router } from "../trpc";
import { chat, testRun } from "../../runtime/service";
import { addFeedback, getTrace, listTraces } from "../../runtime/traces";
import { publishVersion } from "../../runtime/versions";
import { ChatInput, FeedbackInput, PublishInput, TestRunInput, TracesQuery } from "../../runtime/schemas";

const Id = IdParam;

/** The runtime face for the web UI (chat, the canvas test-run panel, trace viewer): the same services as REST. */
export const runtimeRouter = router({
  chat: procedure("builder.read")
    .input(z.object({ agentId: z.string().min(1).max(64), chat: ChatInput }))
    .mutation(({ ctx, input, signal }) => chat(ctx.db, input.agentId, input.chat, ctx.principal, { signal })),
  testRun: procedure("builder.write")
    .input(z.object({ agentId: z.string().min(1).max(64), run: TestRunInput }))
    .mutation(({ ctx, input, signal }) => testRun(ctx.db, input.agentId, input.run, ctx.principal, { signal })),
  traces: router({
    list: procedure("builder.read").input(TracesQuery.optional()).query(({ ctx, input }) => listTraces(ctx.db, input ?? {})),
    get: procedure("builder.read").input(Id).query(({ ctx, input }) => getTrace(ctx.db, input.id)),
  }),
  feedback: procedure("builder.read")
    .input(Id.extend(FeedbackInput.shape))
    .mutation(({ ctx, input }) => addFeedback(ctx.db, input.id, { score: input.score, comment: input.comment }, ctx.principal)),
  publish: procedure("builder.write")
    .input(Id.extend(PublishInput.shape))
    .mutation(({ ctx, input }) => publishVersion(ctx.db, input.id, input.version)),
});
