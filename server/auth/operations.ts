/**
 * Users and API tokens as operations (operation.ts): admins only, on tRPC (`admin.*`, the settings pages); all but
 * creating a token are `rest: false` (no REST route on purpose); `POST /api/admin/tokens` lets scripts make a
 * reviewer's token (server/http/endpoints/admin.ts).
 */
import { z } from "zod";
import { defineOperation } from "./operation";
import { AdminCreateTokenInput, createTokenFor } from "./admin-tokens";
import { CreateUserInput, RoleSchema, createUser, listTokens, listUsers, revokeToken, updateUser } from "./service";

const date = z.iso.datetime();

const UserOut = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: RoleSchema,
  disabledAt: date.nullable(),
  createdAt: date,
});

const TokenOut = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  role: RoleSchema,
  createdAt: date,
  lastUsedAt: date.nullable(),
  revokedAt: date.nullable(),
  ownerId: z.string().nullable(),
});

export const adminListUsers = defineOperation({
  id: "adminListUsers",
  trpc: "admin.users.list",
  rest: false,
  kind: "query",
  permission: "admin",
  output: z.array(UserOut),
  run: ({ db }) => listUsers(db),
});

export const adminCreateUser = defineOperation({
  id: "adminCreateUser",
  trpc: "admin.users.create",
  rest: false,
  kind: "mutation",
  permission: "admin",
  body: CreateUserInput,
  output: UserOut,
  run: ({ db, body }) => createUser(db, body),
});

export const adminUpdateUser = defineOperation({
  id: "adminUpdateUser",
  trpc: "admin.users.update",
  rest: false,
  kind: "mutation",
  permission: "admin",
  body: z.object({
    id: z.string(),
    role: RoleSchema.optional(),
    disabled: z.boolean().optional(),
    password: z.string().min(8).max(200).optional(),
  }),
  output: UserOut,
  run: ({ db, body, principal }) => updateUser(db, body.id, body, principal),
});

export const adminListTokens = defineOperation({
  id: "adminListTokens",
  trpc: "admin.tokens.list",
  rest: false,
  kind: "query",
  permission: "admin",
  output: z.array(TokenOut),
  run: ({ db }) => listTokens(db),
});

/** The plain token is in this answer only. The one operation here with a REST face too (POST /api/admin/tokens). */
export const adminCreateToken = defineOperation({
  id: "adminCreateToken",
  trpc: "admin.tokens.create",
  kind: "mutation",
  permission: "admin",
  description:
    "Creates an API token for any user (`userId`; default: you). The token acts as that user: it reviews as them (its verdicts, reviews and reservations are theirs, blind review included). `role` defaults to the owner's role and may not exceed it (400 REQUEST_INVALID); an unknown or disabled user answers 404 NOT_FOUND. The plain token is in this answer only (it is stored hashed); revoke it in Settings.",
  body: AdminCreateTokenInput,
  output: TokenOut.extend({ token: z.string() }).meta({ id: "AdminCreatedToken" }),
  run: ({ db, body, principal }) => createTokenFor(db, body, principal.userId),
});

export const adminRevokeToken = defineOperation({
  id: "adminRevokeToken",
  trpc: "admin.tokens.revoke",
  rest: false,
  kind: "mutation",
  permission: "admin",
  body: z.object({ id: z.string() }),
  output: TokenOut,
  run: ({ db, body }) => revokeToken(db, body.id),
});

export const ADMIN_OPERATIONS = [
  adminListUsers,
  adminCreateUser,
  adminUpdateUser,
  adminListTokens,
  adminCreateToken,
  adminRevokeToken,
];
