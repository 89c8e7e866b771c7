import { z } from "zod";
import { procedure, router } from "../trpc";
import {
  CreateTokenInput,
  CreateUserInput,
  RoleSchema,
  createToken,
  createUser,
  listTokens,
  listUsers,
  revokeToken,
  updateUser,
} from "../../auth/service";

/** Users and API tokens: admins only. */
export const adminRouter = router({
  users: router({
    list: procedure("admin").query(({ ctx }) => listUsers(ctx.db)),
    create: procedure("admin")
      .input(CreateUserInput)
      .mutation(({ ctx, input }) => createUser(ctx.db, input)),
    update: procedure("admin")
      .input(
        z.object({
          id: z.string(),
          role: RoleSchema.optional(),
          disabled: z.boolean().optional(),
          password: z.string().min(8).max(200).optional(),
        }),
      )
      .mutation(({ ctx, input }) => updateUser(ctx.db, input.id, input, ctx.principal)),
  }),
  tokens: router({
    list: procedure("admin").query(({ ctx }) => listTokens(ctx.db)),
    /** The plain token is in this response only. */
    create: procedure("admin")
      .input(CreateTokenInput)
      .mutation(({ ctx, input }) => createToken(ctx.db, input, ctx.principal.userId)),
    revoke: procedure("admin")
      .input(z.object({ id: z.string() }))
      .mutation(({ ctx, input }) => revokeToken(ctx.db, input.id)),
  }),
});
