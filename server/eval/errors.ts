import { Prisma } from "../db/generated/client";
import { ApiError, errors } from "../core/errors";

/** Error helpers of the evaluation center (the one error shape from server/http/errors.ts). */
export const evalErrors = {
  notFrozen: (what: string) => new ApiError(400, "SET_VERSION_NOT_FROZEN", `${what} is a draft: runs can only be created from a frozen version (freeze it first)`),
  frozen: (what: string) => new ApiError(409, "SET_VERSION_FROZEN", `${what} is frozen and immutable: create a new version (a copy) and edit that`),
  incomplete: (message: string, details: unknown[]) => new ApiError(400, "SET_VERSION_INCOMPLETE", message, details),
  hasRuns: (message: string) => new ApiError(409, "SET_HAS_RUNS", message),
  importInvalid: (details: unknown[]) =>
    new ApiError(400, "IMPORT_INVALID", `The import has ${details.length} error${details.length === 1 ? "" : "s"}; nothing was imported`, details),
  limit: (message: string, limit: string, value: number) => new ApiError(413, "EVAL_LIMIT_EXCEEDED", message, [{ limit, value }]),
  runState: (message: string, status: string) => new ApiError(409, "RUN_STATE_CONFLICT", message, [{ status }]),
  runMode: (message: string) => new ApiError(400, "RUN_MODE_MISMATCH", message),
  notJudgeable: (status: string) => new ApiError(409, "ITEM_NOT_JUDGEABLE", `The item is ${status}: only answered or failed items can receive a verdict`, [{ status }]),
  notFound: errors.notFound,
};


export function isUniqueViolation(e: unknown): boolean {
  return e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";
}

export function isNotFound(e: unknown): boolean {
  return e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2025";
}

/** The database triggers that guard frozen versions raise this (see the runtime_and_eval migration). */
export function isFrozenViolation(e: unknown): boolean {
  const msg = e instanceof Error ? e.message : String(e);
  return /frozen and immutable|samples of a frozen evaluation set version/.test(msg);
}

export const jsonOrDbNull = (v: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull =>
  v === null || v === undefined ? Prisma.DbNull : (v as Prisma.InputJsonValue);
