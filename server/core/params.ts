import { z } from "zod";

/** The path/input shape `{ id }` of one resource (cuid or short Run ID), shared by the REST and tRPC faces. */
export const IdParam = z.object({ id: z.string().min(1).max(64) });

/**
 * The largest version number (and any integer id) the database stores: a 32-bit `integer` column. One bound shared
 * by every schema that takes a version number, so a larger one is a 400 (documented as the schema's maximum), never
 * a database error.
 */
export const MAX_DB_INT = 2_147_483_647;
/** A version number in a path or body (1 .. MAX_DB_INT). */
export const VersionNumber = z.int().min(1).max(MAX_DB_INT);
/** A version number in a path (text coerced to an integer; same bound). */
export const VersionParam = z.coerce.number().int().min(1).max(MAX_DB_INT);
