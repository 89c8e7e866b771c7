import { procedure, router } from "../trpc";
import { AgentParams, listVersions } from "../../agents/service";
import { BUILDER_OPERATIONS } from "../../agents/operations";
import { treeOf } from "../operations";

const declared = treeOf(BUILDER_OPERATIONS);

/** The builder face for the web canvas: the declared operations (server/agents/operations.ts), and the version list,
 * which answers an array here and `{ items }` over REST (input convention: server/api/operations.ts). */
export const builderRouter = router({
  ...declared.builder,
  versions: router({
    ...declared.builder.versions,
    list: procedure("builder.read")
      .input(AgentParams)
      .query(({ ctx, input }) => listVersions(ctx.db, input.id)),
  }),
});
