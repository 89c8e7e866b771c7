import type { z, ZodObject, ZodType } from "zod";
import type { Db } from "../db/client";
import type { Permission } from "./roles";
import type { Principal } from "./service";

/**
 * One operation, declared once in its domain (`server/<feature>/**\/operations.ts`): its id (the REST operationId),
 * who may call it, its inputs, its output schema and the function it runs. The faces derive from it: the tRPC
 * procedure (`server/api/operations.ts`) and the REST route (`server/http/rest.ts`, which adds method, path, summary
 * and documented statuses). It lives here, beside the permission table and the principal it names, because every
 * domain and both faces may import `server/auth` and nothing below knows who is calling.
 *
 * Typed answers: `run` must return what, serialised as JSON, the output schema accepts (`Answer<z.input<O>>`: a Date
 * where the schema says a string, since JSON.stringify writes Dates as ISO strings). A handler answering another
 * shape does not compile (`server/auth/operation.typecheck.ts`).
 */
export type OperationKind = "query" | "mutation";

type Part<S> = S extends ZodType ? z.output<S> : undefined;

export type OperationContext<P, Q, B> = {
  db: Db;
  principal: Principal;
  params: Part<P>;
  query: Part<Q>;
  body: Part<B>;
  /** Aborted when the caller goes away (the REST request or the tRPC call). */
  signal?: AbortSignal;
};

/** What a value may be before JSON serialisation for its JSON to match `T` (a schema's input type). */
export type Answer<T> = unknown extends T
  ? unknown
  : T extends string
    ? T | Date
    : T extends readonly (infer E)[]
      ? readonly Answer<E>[]
      : T extends object
        ? { [K in keyof T]: Answer<T[K]> }
        : T;

export type Operation<
  P extends ZodObject | undefined = ZodObject | undefined,
  Q extends ZodType | undefined = ZodType | undefined,
  B extends ZodType | undefined = ZodType | undefined,
  O extends ZodType = ZodType,
  R = unknown,
  K extends OperationKind = OperationKind,
  T extends string | undefined = string | undefined,
> = {
  /** Stable name: the REST operationId, also how tests and docs name it. */
  id: string;
  permission: Permission;
  /**
   * What the operation does and the rules it keeps (states, conflicts, limits), in Markdown: the operation's
   * description in /docs (REST adds only what is REST's after it). Declared here once; no other document repeats it.
   */
  description?: string;
  /** tRPC query (reads) or mutation (writes); a REST GET is a query. */
  kind: K;
  /** The tRPC procedure's path (`eval.runs.create`); absent: no tRPC face. */
  trpc?: T;
  /** false: no REST route on purpose (the faces test knows). */
  rest?: false;
  params?: P;
  query?: Q;
  body?: B;
  /** The answer's schema: documented as the REST success response, and the type `run` must return. */
  output: O;
  run: (ctx: OperationContext<P, Q, B>) => Promise<R>;
};

// biome-ignore lint/suspicious/noExplicitAny: any operation, whatever its schemas (used by lists and the faces)
export type AnyOperation = Operation<any, any, any, ZodType, any, OperationKind, string | undefined>;

/** Declares an operation; the compiler refuses a `run` whose answer does not match `output`. */
export function defineOperation<
  O extends ZodType,
  R extends Answer<z.input<O>>,
  P extends ZodObject | undefined = undefined,
  Q extends ZodType | undefined = undefined,
  B extends ZodType | undefined = undefined,
  const K extends OperationKind = OperationKind,
  const T extends string | undefined = undefined,
>(op: Operation<P, Q, B, O, R, K, T>): Operation<P, Q, B, O, R, K, T> {
  return op;
}
