import { PrismaClient } from "./generated/client";
import { appAdapterFactory, closePglite } from "./adapters";
import { parseDatabaseUrl, type DatabaseTarget } from "./url";

export type Db = PrismaClient;
type Globals = { __flowbenchDb?: { target: DatabaseTarget; client: Promise<PrismaClient> } };
const globals = globalThis as typeof globalThis & Globals;

export function databaseTarget(): DatabaseTarget {
  return parseDatabaseUrl(process.env.DATABASE_URL);
}

/**
 * The process-wide Prisma client (a globalThis singleton so `next dev` reloads do not open a second PGlite
 * instance on the same folder).
 */
export function getDb(): Promise<PrismaClient> {
  if (!globals.__flowbenchDb) {
    const target = databaseTarget();
    const client = appAdapterFactory(target).then((adapter) => new PrismaClient({ adapter }));
    globals.__flowbenchDb = { target, client };
  }
  return globals.__flowbenchDb.client;
}

export async function closeDb(): Promise<void> {
  const current = globals.__flowbenchDb;
  if (!current) return;
  globals.__flowbenchDb = undefined;
  await (await current.client).$disconnect();
  if (current.target.kind === "pglite") await closePglite(current.target.dataDir);
}
