import { z } from "zod";
import { IdParam } from "../../http/params";
import { env } from "../../env";
import { procedure, router } from "../trpc";
import { errors } from "../../http/errors";
import {
  AddVersionInput,
  CreateAgentInput,
  ListAgentsQuery,
  UpdateAgentInput,
  addVersion,
  createAgent,
  deleteAgent,
  getAgent,
  getVersion,
  listAgents,
  listVersions,
  updateAgent,
} from "../../agents/service";
import { RECIPES, getRecipe, nodeTypesSummary } from "../../workflow";
import { validateWorkflowWithCode } from "../../runtime/validate-code";

const AgentId = IdParam;

/** The builder face for the web canvas: the same service functions as the REST endpoints. */
export const builderRouter = router({
  nodeTypes: procedure("builder.read").query(() => nodeTypesSummary()),
  /** Returns findings rather than throwing: the canvas shows them in place. */
  validate: procedure("builder.read")
    .input(z.object({ workflow: z.unknown() }))
    .mutation(({ input }) => validateWorkflowWithCode(input, { webhookBaseUrl: env().WEBHOOK_BASE_URL })),
  recipes: procedure("builder.read").query(() => Object.values(RECIPES)),
  recipe: procedure("builder.read")
    .input(z.object({ name: z.string().max(64) }))
    .query(({ input }) => {
      const recipe = getRecipe(input.name);
      if (!recipe) throw errors.notFound(`Recipe ${input.name}`);
      return recipe;
    }),
  agents: router({
    list: procedure("builder.read").input(ListAgentsQuery.optional()).query(({ ctx, input }) => listAgents(ctx.db, input ?? {})),
    get: procedure("builder.read").input(AgentId).query(({ ctx, input }) => getAgent(ctx.db, input.id)),
    create: procedure("builder.write")
      .input(CreateAgentInput)
      .mutation(({ ctx, input }) => createAgent(ctx.db, input, ctx.principal, { webhookBaseUrl: env().WEBHOOK_BASE_URL })),
    update: procedure("builder.write")
      .input(AgentId.extend({ patch: UpdateAgentInput }))
      .mutation(({ ctx, input }) => updateAgent(ctx.db, input.id, input.patch)),
    delete: procedure("builder.write")
      .input(AgentId)
      .mutation(async ({ ctx, input }) => {
        await deleteAgent(ctx.db, input.id);
        return { deleted: true };
      }),
  }),
  versions: router({
    list: procedure("builder.read").input(AgentId).query(({ ctx, input }) => listVersions(ctx.db, input.id)),
    get: procedure("builder.read")
      .input(AgentId.extend({ version: z.number().int().min(1) }))
      .query(({ ctx, input }) => getVersion(ctx.db, input.id, input.version)),
    create: procedure("builder.write")
      .input(AgentId.extend(AddVersionInput.shape))
      .mutation(({ ctx, input }) =>
        addVersion(ctx.db, input.id, { workflow: input.workflow, note: input.note }, ctx.principal, { webhookBaseUrl: env().WEBHOOK_BASE_URL }),
      ),
  }),
});
