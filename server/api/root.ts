import { router, procedure } from "./trpc";
import { adminRouter } from "./routers/admin";
import { builderRouter } from "./routers/builder";

export const appRouter = router({
  builder: builderRouter,
  admin: adminRouter,
  /** Who am I: lets the UI and scripts check a session or token. */
  me: procedure("builder.read").query(({ ctx }) => ctx.principal),
});

export type AppRouter = typeof appRouter;
