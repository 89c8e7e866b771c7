import type { TRPCMutationProcedure, TRPCQueryProcedure } from "@trpc/server";
import { z, type ZodObject, type ZodType } from "zod";
import type { AnyOperation } from "../auth/operation";
import { procedure } from "./trpc";

/**
 * The tRPC face of operations (server/auth/operation.ts): a procedure per declaration, at the path it names
 * (`trpc: "eval.runs.create"`), with the permission it names. Input convention (every router): the REST path
 * parameters at the top level under their REST names, the REST body whole under `body`, the REST query whole under
 * `query`; an operation without path parameters takes its body or query as the input itself. A body or query may be
 * left out when `{}` is valid (`prefault({})`; the type says so: the UI calls `eval.runs.adopt({ id })`). Nothing is copied field by
 * field, so a field added to a schema reaches both faces (server/api/faces.test.ts checks it).
 */

type Def<S> = Exclude<S, undefined>;
/** A body or query that `{}` satisfies may be left out (it is `{}` then); one with required fields may not. */
type Leave<S extends ZodType> = {} extends z.input<S> ? z.input<S> | undefined : z.input<S>;
type Named<K extends string, S> = [Def<S>] extends [never]
  ? unknown
  : {} extends z.input<Def<S>>
    ? { [k in K]?: z.input<Def<S>> }
    : { [k in K]: z.input<Def<S>> };

/** The input a derived procedure takes (see the convention above). */
export type TrpcInput<Op extends AnyOperation> = [Def<Op["params"]>] extends [never]
  ? [Def<Op["body"]>] extends [never]
    ? [Def<Op["query"]>] extends [never]
      ? void
      : Leave<Def<Op["query"]>>
    : Leave<Def<Op["body"]>>
  : z.input<Def<Op["params"]>> & Named<"body", Op["body"]> & Named<"query", Op["query"]>;

type Answer<Op> = Op extends { run: (ctx: never) => Promise<infer R> } ? R : never;

export type ProcedureOf<Op extends AnyOperation> = Op["kind"] extends "query"
  ? TRPCQueryProcedure<{ input: TrpcInput<Op>; output: Answer<Op>; meta: object }>
  : TRPCMutationProcedure<{ input: TrpcInput<Op>; output: Answer<Op>; meta: object }>;

function inputSchema(op: AnyOperation): ZodType | undefined {
  const body = op.body ? (op.body as ZodType).prefault({}) : undefined;
  const query = op.query ? (op.query as ZodType).prefault({}) : undefined;
  if (op.params) return (op.params as ZodObject).extend({ ...(body ? { body } : {}), ...(query ? { query } : {}) });
  return body ?? query;
}

/** The tRPC procedure of one operation. */
export function procedureOf<Op extends AnyOperation>(op: Op): ProcedureOf<Op> {
  const schema = inputSchema(op);
  const base = schema ? procedure(op.permission).input(schema) : procedure(op.permission);
  const split = (input: Record<string, unknown> | undefined) => {
    if (op.params) {
      const { body, query, ...params } = input ?? {};
      return { params, body, query };
    }
    return { params: undefined, body: op.body ? input : undefined, query: op.query ? input : undefined };
  };
  const resolver = ({
    ctx,
    input,
    signal,
  }: {
    ctx: { db: Parameters<AnyOperation["run"]>[0]["db"]; principal: Parameters<AnyOperation["run"]>[0]["principal"] };
    input: unknown;
    signal: AbortSignal | undefined;
  }) => op.run({ db: ctx.db, principal: ctx.principal, ...split(input as Record<string, unknown>), signal });
  return (op.kind === "query" ? base.query(resolver) : base.mutation(resolver)) as unknown as ProcedureOf<Op>;
}

type Nest<Path extends string, V> = Path extends `${infer Head}.${infer Rest}`
  ? { [K in Head]: Nest<Rest, V> }
  : { [K in Path]: V };
type Merge<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** The nested record of procedures named by the operations' `trpc` paths, for `router()`. */
export type TreeOf<Ops extends AnyOperation> = Merge<
  Ops extends AnyOperation
    ? Exclude<Ops["trpc"], undefined> extends string
      ? Nest<Exclude<Ops["trpc"], undefined>, ProcedureOf<Ops>>
      : never
    : never
>;

export function treeOf<const Ops extends readonly AnyOperation[]>(ops: Ops): TreeOf<Ops[number]> {
  const tree: Record<string, unknown> = {};
  for (const op of ops) {
    if (!op.trpc) continue;
    const path = op.trpc.split(".");
    let node = tree;
    for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    const leaf = path.at(-1)!;
    if (node[leaf]) throw new Error(`two operations at tRPC path ${op.trpc}`);
    node[leaf] = procedureOf(op);
  }
  return tree as TreeOf<Ops[number]>;
}
