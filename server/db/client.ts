import { PrismaClient } from "./generated/client";
import type { SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { appAdapterFactory } from "./adapters";
import { databaseTarget, type DatabaseTarget } from "./url";

export type Db = PrismaClient;
type Globals = { __flowbenchDb?: { target: DatabaseTarget; client: Promise<PrismaClient> } };
const globals = globalThis as typeof globalThis & Globals;

export { databaseTarget };

/**
 * Interactive transactions wait up to 10 s for a connection (PostgreSQL: the pool) or for their turn (PGlite: one
 * connection, so one transaction at a time) and may run 15 s, instead of Prisma's 2 s / 5 s: a burst of concurrent
 * writes (twenty pool adds, forty verdicts) queued longer than 2 s under load and was answered 500 (P2028). A caller
 * that knows it needs longer passes its own timeout.
 */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 } as const;

/** A Prisma client on an adapter, with the transaction limits above (the app's, the tests' and the scripts' alike). */
export function prismaClient(adapter: SqlDriverAdapterFactory): PrismaClient {
  return new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
}

/**
 * The process-wide Prisma client (a globalThis singleton so `next dev` reloads do not open a second PGlite
 * instance on the same folder).
 */
export function getDb(): Promise<PrismaClient> {
  if (!globals.__flowbenchDb) {
    const target = databaseTarget();
    const client = appAdapterFactory(target).then(prismaClient);
    globals.__flowbenchDb = { target, client };
  }
  return globals.__flowbenchDb.client;
}
