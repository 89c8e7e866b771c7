/**
 * Must not compile without its `@ts-expect-error` lines: an operation whose answer does not match its output schema is
 * refused by the compiler (server/auth/operation.ts). Type-checked, never run: `next build` type-checks every file of
 * tsconfig.json (so `npm test`'s build stage does, and `npm start`'s build), as does `npm run typecheck`, and fails on
 * any diagnostic, an unused `@ts-expect-error` (TS2578) included, so each line below must really be an error. (A unit
 * test compiled this file again on its own: 20-45 s of CPU for what the build already checks.)
 */
import { z } from "zod";
import { defineOperation } from "./operation";

const Out = z.object({ id: z.string(), count: z.number().int(), at: z.iso.datetime(), note: z.string().optional() });

export const right = defineOperation({
  id: "right",
  kind: "query",
  permission: "eval.read",
  output: Out,
  // a Date where the schema says an ISO string: JSON.stringify writes it as one
  run: async () => ({ id: "a", count: 1, at: new Date(), note: "n" }),
});

export const wrongType = defineOperation({
  id: "wrongType",
  kind: "query",
  permission: "eval.read",
  output: Out,
  // @ts-expect-error count is a string, the schema says a number
  run: async () => ({ id: "a", count: "1", at: new Date() }),
});

export const missingField = defineOperation({
  id: "missingField",
  kind: "query",
  permission: "eval.read",
  output: Out,
  // @ts-expect-error id is missing
  run: async () => ({ count: 1, at: "2026-01-01T00:00:00Z" }),
});

export const nullForOptional = defineOperation({
  id: "nullForOptional",
  kind: "query",
  permission: "eval.read",
  output: Out,
  // @ts-expect-error note may be left out but not null
  run: async () => ({ id: "a", count: 1, at: "2026-01-01T00:00:00Z", note: null }),
});

export const wrongEnvelope = defineOperation({
  id: "wrongEnvelope",
  kind: "query",
  permission: "eval.read",
  output: z.object({ items: z.array(Out), nextCursor: z.string().nullable() }),
  // @ts-expect-error a page, not a bare list
  run: async () => [{ id: "a", count: 1, at: new Date() }],
});

export const unknownPermission = defineOperation({
  id: "unknownPermission",
  kind: "query",
  // @ts-expect-error not a permission of server/auth/roles.ts
  permission: "eval.everything",
  output: Out,
  run: async () => ({ id: "a", count: 1, at: new Date() }),
});

export const paramsTyped = defineOperation({
  id: "paramsTyped",
  kind: "query",
  permission: "eval.read",
  params: z.object({ id: z.string() }),
  output: Out,
  // @ts-expect-error params.id is a string, and the answer's id must be one
  run: async ({ params }) => ({ id: params.id.length, count: 1, at: new Date() }),
});
