import { z } from "zod";
import { env } from "../../core/env";
import { procedure, router } from "../trpc";
import { AgentParams, listVersions } from "../../agents/service";
import { BUILDER_OPERATIONS } from "../../agents/operations";
import { treeOf } from "../operations";
import { RECIPES, RecipeParams, nodeTypesSummary, requireRecipe } from "../../workflow";
import { validateWorkflowWithCode } from "../../runtime/validate-code";

const declared = treeOf(BUILDER_OPERATIONS);

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
  // the declared operations (server/agents/operations.ts), and the version list that differs from its REST twin
  agents: router(declared.builder.agents),
  versions: router({
    ...declared.builder.versions,
    list: procedure("builder.read")
      .input(AgentParams)
      .query(({ ctx, input }) => listVersions(ctx.db, input.id)),
  }),
});
