import type { PrismaClient } from "./generated/client";
import { prismaClient } from "./client";
import { appAdapterFactory, closePglite } from "./adapters";
import { deployMigrations } from "./migrate";
import { parseDatabaseUrl } from "./url";

/** A fresh in-memory PGlite with every migration applied, for service tests. */
export async function createTestDb(): Promise<{ db: PrismaClient; close: () => Promise<void> }> {
  const target = parseDatabaseUrl(`pglite:memory://test-${crypto.randomUUID()}`);
  await deployMigrations(target);
  const db = prismaClient(await appAdapterFactory(target));
  return {
    db,
    close: async () => {
      await db.$disconnect();
      if (target.kind === "pglite") await closePglite(target.dataDir);
    },
  };
}
