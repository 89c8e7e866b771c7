import { Prisma } from "../db/generated/client";
import { ApiError, errors } from "../core/errors";
import { EVAL_ERROR_CODES } from "./codes";

/** An ApiError (the one error shape, server/core/errors.ts) with the status the code table gives its code (./codes.ts). */
export function evalError(code: string, message: string, details: unknown[] = []): ApiError {
  const entry = EVAL_ERROR_CODES[code];
  if (!entry) throw new Error(`${code} is not in the evaluation error table (server/eval/codes.ts)`);
  return new ApiError(entry.status, code, message, details);
}

/** Error helpers of the evaluation center; each status comes from the code table. */
export const evalErrors = {
  notFrozen: (what: string) =>
    evalError(
      "SET_VERSION_NOT_FROZEN",
      `${what} is a draft: runs can only be created from a frozen version (freeze it first)`,
    ),
  frozen: (what: string) =>
    evalError("SET_VERSION_FROZEN", `${what} is frozen and immutable: create a new version (a copy) and edit that`),
  incomplete: (message: string, details: unknown[]) => evalError("SET_VERSION_INCOMPLETE", message, details),
  hasRuns: (message: string) => evalError("SET_HAS_RUNS", message),
  importInvalid: (details: unknown[]) =>
    evalError(
      "IMPORT_INVALID",
      `The import has ${details.length} error${details.length === 1 ? "" : "s"}; nothing was imported`,
      details,
    ),
  limit: (message: string, limit: string, value: number) =>
    evalError("EVAL_LIMIT_EXCEEDED", message, [{ limit, value }]),
  runState: (message: string, status: string) => evalError("RUN_STATE_CONFLICT", message, [{ status }]),
  pricesFromEnv: () =>
    evalError(
      "MODEL_PRICES_FROM_ENV",
      "FLOWBENCH_MODEL_PRICES is set: the price table comes from the environment; unset it to edit prices here",
    ),
  runMode: (message: string) => evalError("RUN_MODE_MISMATCH", message),
  notJudgeable: (status: string) =>
    evalError("ITEM_NOT_JUDGEABLE", `The item is ${status}: only answered or failed items can receive a verdict`, [
      { status },
    ]),
  reviewsComplete: (needed: number) =>
    evalError(
      "ITEM_REVIEWS_COMPLETE",
      `The item already has its ${needed} reviews from other people: a dispute is decided by an adjudicator`,
      [{ needed }],
    ),
  adjudicated: (decided: { verdict: unknown; byId: string | null; at: Date | null }) =>
    evalError("ITEM_ADJUDICATED", "An adjudicator has decided this item: their verdict is final", [decided]),
  notDisputed: (state: string) =>
    evalError("ITEM_NOT_DISPUTED", `The item is not disputed (${state}): only a dispute can be adjudicated`, [
      { state },
    ]),
  adjudicationConflict: (winner: { verdict: unknown; byId: string | null; at: Date | null }) =>
    evalError(
      "ADJUDICATION_CONFLICT",
      "Another adjudicator decided this item first; nothing was written (details: their verdict)",
      [winner],
    ),
  verdictConflict: (expected: number, current: { verdictVersion: number; verdict: unknown }) =>
    evalError(
      "VERDICT_CONFLICT",
      `The verdict changed since you read it (version ${expected}, now ${current.verdictVersion}): reload the item and decide again`,
      [{ expectedVersion: expected, verdictVersion: current.verdictVersion, verdict: current.verdict }],
    ),
  notPool: (name: string, kind: string) =>
    evalError(
      "SET_NOT_REGRESSION_POOL",
      `"${name}" is a ${kind} set: online traces go into regression-pool sets only (a golden set is curated release evidence)`,
    ),
  traceNotOnline: (source: string) =>
    new ApiError(
      409,
      "TRACE_NOT_ONLINE", // the runtime's code too (feedback), so its status is in the REST table
      `Only online traces (chat, api) can become pool samples or leads; this one is ${source}`,
    ),
  traceOtherAgent: () => evalError("TRACE_OTHER_AGENT", "The trace belongs to another agent than the set"),
  notFound: errors.notFound,
};

export function isUniqueViolation(e: unknown): boolean {
  return e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";
}

export function isNotFound(e: unknown): boolean {
  return e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2025";
}

/** The database triggers that guard frozen versions raise this (see the runtime_and_eval migration). */
export { isFrozenViolation } from "../db/triggers";

export const jsonOrDbNull = (v: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull =>
  v === null || v === undefined ? Prisma.DbNull : (v as Prisma.InputJsonValue);
