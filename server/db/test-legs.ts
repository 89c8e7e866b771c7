import { afterAll, beforeAll } from "vitest";
import type { PrismaClient } from "./generated/client";
import { createPostgresTestDatabase, postgresReachable } from "./test-postgres";

/**
 * Unit tests whose behaviour depends on the database (raw SQL, locks) run on both: `describe.each(DB_LEGS)`, and in
 * it `legDatabase` opens the leg's test database before the tests and closes (on PostgreSQL drops) it after them.
 * The PostgreSQL leg is skipped with a notice when no server is reachable (`skip`).
 */
export const DB_LEGS = [
  { name: "embedded database (PGlite)", pg: false },
  { name: "PostgreSQL", pg: true },
] as const;
export type DbLeg = (typeof DB_LEGS)[number];

const pgReachable = await postgresReachable();

/**
 * The leg's database for the tests of the surrounding describe: `open` makes it (the PostgreSQL URL, or undefined for
 * the embedded database) and `use` receives it before the first test. `prefix` names the PostgreSQL database, `what`
 * the tests in the notice of a skipped leg.
 */
export function legDatabase<D extends { db: PrismaClient; close: () => Promise<void> }>(
  leg: DbLeg,
  opts: { open: (url: string | undefined) => Promise<D>; use: (opened: D) => void; prefix: string; what: string },
): { skip: boolean } {
  const skip = leg.pg && !pgReachable;
  if (skip) console.warn(`[tests] NOTICE: no PostgreSQL server reachable: ${opts.what} on it are SKIPPED`);
  let opened: D | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (skip) return;
    let url: string | undefined;
    if (leg.pg) ({ url, drop } = await createPostgresTestDatabase({ prefix: opts.prefix }));
    opened = await opts.open(url);
    opts.use(opened);
  }, 120_000);
  afterAll(async () => {
    await opened?.close();
    await drop?.();
  });
  return { skip };
}
