import { router, procedure } from "./trpc";
import { builderRouter } from "./routers/builder";
import { ADMIN_OPERATIONS } from "../auth/operations";
import { EVAL_OPERATIONS } from "../eval/operations";
import { RUNTIME_OPERATIONS } from "../runtime/operations";
import { WEBHOOK_OPERATIONS } from "../webhooks/operations";
import { treeOf } from "./operations";

/** The procedures derived from operation declarations (server/api/operations.ts), then the routers still written here. */
export const appRouter = router({
  ...treeOf([...EVAL_OPERATIONS, ...RUNTIME_OPERATIONS, ...ADMIN_OPERATIONS, ...WEBHOOK_OPERATIONS]),
  builder: builderRouter,
  /** Who am I: lets the UI and scripts check a session or token. */
  me: procedure("builder.read").query(({ ctx }) => ctx.principal),
});

export type AppRouter = typeof appRouter;
