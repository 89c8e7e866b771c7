import { router, procedure } from "./trpc";
import { adminRouter } from "./routers/admin";
import { builderRouter } from "./routers/builder";
import { evalRouter } from "./routers/eval";
import { runtimeRouter } from "./routers/runtime";

export const appRouter = router({
  builder: builderRouter,
  admin: adminRouter,
  runtime: runtimeRouter,
  eval: evalRouter,
  /** Who am I: lets the UI and scripts check a session or token. */
  me: procedure("builder.read").query(({ ctx }) => ctx.principal),
});

export type AppRouter = typeof appRouter;
