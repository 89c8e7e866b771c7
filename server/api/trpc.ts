import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { resolvePrincipal } from "../auth/principal";
import { can, type Permission } from "../auth/roles";
import type { Principal } from "../auth/service";
import { getDb } from "../db/client";
import { ApiError, errors } from "../core/errors";
import { findUnstorable } from "../core/text";

/**
 * Context: who is calling (session or bearer token) and the database; `refused`: why a browser session's call was
 * refused before it was identified (a mutation from another site's page: server/auth/principal.ts), answered by every
 * procedure in place of the call.
 */
export async function createContext({ headers, method = "GET" }: { headers: Headers; method?: string }) {
  const db = await getDb();
  try {
    return { principal: await resolvePrincipal(headers, "token-or-session", method), refused: null, db };
  } catch (e) {
    if (e instanceof ApiError) return { principal: null, refused: e, db };
    throw e;
  }
}
type Context = Awaited<ReturnType<typeof createContext>>;

const STATUS_TO_TRPC: Record<number, TRPCError["code"]> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
};

const t = initTRPC.context<Context>().create({
  // The same stable codes and details as REST, so the UI can show the one error vocabulary.
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const api = cause instanceof ApiError ? cause : null;
    const zod = cause instanceof ZodError ? cause : null;
    return {
      ...shape,
      message:
        api?.message ??
        (zod ? zod.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ") : shape.message),
      data: {
        ...shape.data,
        stack: undefined,
        appCode:
          api?.code ?? (zod ? "REQUEST_INVALID" : error.code === "INTERNAL_SERVER_ERROR" ? "INTERNAL" : error.code),
        details: api?.details ?? zod?.issues.map((i) => ({ path: i.path.join("/"), message: i.message })) ?? [],
        ...(api?.extra ?? {}),
      },
    };
  },
});

/** Maps service errors (ApiError) to tRPC errors keeping the original as cause for the formatter. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof ApiError) {
    const api = result.error.cause;
    throw new TRPCError({
      code: STATUS_TO_TRPC[api.status] ?? "INTERNAL_SERVER_ERROR",
      message: api.message,
      cause: api,
    });
  }
  if (!result.ok && result.error.code === "INTERNAL_SERVER_ERROR" && !(result.error.cause instanceof ZodError)) {
    console.error("[flowbench] tRPC internal error:", result.error.cause ?? result.error);
  }
  return result;
});

/** Text PostgreSQL cannot store (NUL, unpaired surrogates) or too deep nesting is a 400 on tRPC too (server/core/text.ts). */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  const found = findUnstorable(await getRawInput());
  if (found) {
    const path = found.path === "/" ? "" : found.path;
    const message = `${path || "The input"} ${found.message}`;
    throw new TRPCError({
      code: "BAD_REQUEST",
      message,
      cause: errors.badRequest("REQUEST_INVALID", message, [{ path, message: found.message, code: found.code }]),
    });
  }
  return next();
});

export const router = t.router;

/**
 * A procedure that requires a principal holding `permission`: errors mapped to the one vocabulary, the caller checked,
 * then unstorable input refused. The caller comes first because tRPC reads the request body when a procedure first
 * asks for its input (`getRawInput`): an unauthenticated or forbidden call is refused without reading it
 * (server/api/handler.ts).
 */
export function procedure(permission: Permission) {
  return t.procedure
    .use(mapErrors)
    .use(({ ctx, next }) => {
      if (ctx.refused)
        throw new TRPCError({
          code: STATUS_TO_TRPC[ctx.refused.status]!,
          message: ctx.refused.message,
          cause: ctx.refused,
        });
      if (!ctx.principal)
        throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in, or send Authorization: Bearer <token>" });
      if (!can(ctx.principal.role, permission)) {
        throw new TRPCError({
          code: "FORBIDDEN",
          message: `Your role (${ctx.principal.role}) may not do this (needs ${permission})`,
        });
      }
      return next({ ctx: { ...ctx, principal: ctx.principal as Principal } });
    })
    .use(storableInput);
}
