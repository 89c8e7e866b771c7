import { router, procedure } from "./trpc";
import { adminRouter } from "./routers/admin";
import { builderRouter } from "./routers/builder";
import { EVAL_OPERATIONS } from "../eval/operations";
import { treeOf } from "./operations";
import { runtimeRouter } from "./routers/runtime";

/** The procedures derived from operation declarations (server/api/operations.ts), then the routers still written here. */
export const appRouter = router({
  ...treeOf(EVAL_OPERATIONS),
  builder: builderRouter,
  admin: adminRouter,
  runtime: runtimeRouter,
  /** Who am I: lets the UI and scripts check a session or token. */
  me: procedure("builder.read").query(({ ctx }) => ctx.principal),
});

export type AppRouter = typeof appRouter;
