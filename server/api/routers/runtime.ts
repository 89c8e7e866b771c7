import { procedure, router } from "../trpc";
import { AgentParams } from "../../agents/service";
import { chat, testRun } from "../../runtime/service";
import { addFeedback, getTrace, listTraces } from "../../runtime/traces";
import { ChatInput, FeedbackInput, TestRunInput, TraceParams, TracesQuery } from "../../runtime/schemas";

/** The runtime face for the web UI (chat, the canvas test-run panel, trace viewer): the same services and schemas as REST (input convention: server/api/operations.ts). */
export const runtimeRouter = router({
  chat: procedure("builder.read")
    .input(AgentParams.extend({ body: ChatInput }))
    .mutation(({ ctx, input, signal }) => chat(ctx.db, input.id, input.body, ctx.principal, { signal })),
  testRun: procedure("builder.write")
    .input(AgentParams.extend({ body: TestRunInput }))
    .mutation(({ ctx, input, signal }) => testRun(ctx.db, input.id, input.body, ctx.principal, { signal })),
  traces: router({
    list: procedure("builder.read")
      .input(TracesQuery.optional())
      .query(({ ctx, input }) => listTraces(ctx.db, input ?? {})),
    get: procedure("builder.read")
      .input(TraceParams)
      .query(({ ctx, input }) => getTrace(ctx.db, input.id)),
  }),
  feedback: procedure("builder.read")
    .input(TraceParams.extend({ body: FeedbackInput }))
    .mutation(({ ctx, input }) => addFeedback(ctx.db, input.id, input.body, ctx.principal)),
});
