/**
 * Tokens an admin makes for any user (issue 23: an API token reviews as the user who owns it). Its own module so the
 * faces test records it like the other services (server/api/faces.test.ts).
 */
import { z } from "zod";
import type { Db } from "../db/client";
import { errors } from "../core/errors";
import { ROLES } from "./roles";
import { RoleSchema, createToken } from "./service";

/** An admin's token for any user (`POST /api/admin/tokens`, tRPC `admin.tokens.create`, Settings). */
export const AdminCreateTokenInput = z.object({
  userId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: "The user who owns the token (it acts and reviews as them); default: you" }),
  name: z.string().trim().min(1).max(120),
  role: RoleSchema.optional().meta({
    description: "The token's role, at most the owner's (default: the owner's role)",
  }),
});

/**
 * A token an admin makes for a user (themselves by default): it acts as that user (an API token reviews as the user
 * who owns it). Its role defaults to the owner's and may not exceed it (400 REQUEST_INVALID); the owner must exist
 * and be enabled (404 NOT_FOUND). The plain token is in this answer only.
 */
export async function createTokenFor(db: Db, input: z.input<typeof AdminCreateTokenInput>, callerId: string | null) {
  const data = AdminCreateTokenInput.parse(input);
  const ownerId = data.userId ?? callerId;
  if (!ownerId) return createToken(db, { name: data.name, role: data.role ?? "viewer" }, null);
  const owner = await db.user.findUnique({
    where: { id: ownerId },
    select: { id: true, role: true, disabledAt: true },
  });
  if (!owner || owner.disabledAt) throw errors.notFound(`User ${ownerId}`);
  const role = data.role ?? owner.role;
  if (ROLES.indexOf(role) < ROLES.indexOf(owner.role))
    throw errors.badRequest("REQUEST_INVALID", `A token's role may not exceed its owner's (${owner.role})`, [
      { path: "/role", message: `at most ${owner.role}`, code: "custom" },
    ]);
  return createToken(db, { name: data.name, role }, owner.id);
}
