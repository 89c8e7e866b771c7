import { z } from "zod";
import { env } from "../../core/env";
import { procedure, router } from "../trpc";
import {
  AddVersionInput,
  AgentParams,
  AgentVersionParams,
  CreateAgentInput,
  ListAgentsQuery,
  PublishInput,
  UpdateAgentInput,
  addVersion,
  createAgent,
  deleteAgent,
  getAgent,
  getVersion,
  listAgents,
  listVersions,
  publishVersion,
  updateAgent,
} from "../../agents/service";
import { RECIPES, RecipeParams, nodeTypesSummary, requireRecipe } from "../../workflow";
import { validateWorkflowWithCode } from "../../runtime/validate-code";

/** The builder face for the web canvas: the same service functions and schemas as the REST endpoints (input convention: server/api/operations.ts). */
export const builderRouter = router({
  nodeTypes: procedure("builder.read").query(() => nodeTypesSummary()),
  /** Returns findings rather than throwing: the canvas shows them in place. */
  validate: procedure("builder.read")
    .input(z.object({ workflow: z.unknown() }))
    .mutation(({ input }) => validateWorkflowWithCode(input, { webhookBaseUrl: env().WEBHOOK_BASE_URL })),
  recipes: procedure("builder.read").query(() => ({ items: Object.values(RECIPES) })),
  recipe: procedure("builder.read")
    .input(RecipeParams)
    .query(({ input }) => requireRecipe(input.name)),
  agents: router({
    list: procedure("builder.read")
      .input(ListAgentsQuery.optional())
      .query(({ ctx, input }) => listAgents(ctx.db, input ?? {})),
    get: procedure("builder.read")
      .input(AgentParams)
      .query(({ ctx, input }) => getAgent(ctx.db, input.id)),
    create: procedure("builder.write")
      .input(CreateAgentInput)
      .mutation(({ ctx, input }) =>
        createAgent(ctx.db, input, ctx.principal, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
      ),
    update: procedure("builder.write")
      .input(AgentParams.extend({ body: UpdateAgentInput }))
      .mutation(({ ctx, input }) => updateAgent(ctx.db, input.id, input.body)),
    delete: procedure("builder.write")
      .input(AgentParams)
      .mutation(async ({ ctx, input }) => {
        await deleteAgent(ctx.db, input.id);
        return { deleted: true };
      }),
    publish: procedure("builder.write")
      .input(AgentParams.extend({ body: PublishInput }))
      .mutation(({ ctx, input }) => publishVersion(ctx.db, input.id, input.body.version)),
  }),
  versions: router({
    list: procedure("builder.read")
      .input(AgentParams)
      .query(({ ctx, input }) => listVersions(ctx.db, input.id)),
    get: procedure("builder.read")
      .input(AgentVersionParams)
      .query(({ ctx, input }) => getVersion(ctx.db, input.id, input.version)),
    create: procedure("builder.write")
      .input(AgentParams.extend({ body: AddVersionInput }))
      .mutation(({ ctx, input }) =>
        addVersion(ctx.db, input.id, input.body, ctx.principal, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
      ),
  }),
});
