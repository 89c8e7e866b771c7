import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "./generated/client";
import { TRANSACTION_OPTIONS } from "./client";
import { createTestDb } from "./test-db";

/**
 * The app's Prisma client waits its turn for an interactive transaction longer than Prisma's 2 s default: on PGlite
 * (one connection) a burst of concurrent transactions queues, and with the default the last ones failed (P2028, a 500).
 */
let db: PrismaClient;
let close: () => Promise<void>;
beforeAll(async () => ({ db, close } = await createTestDb()), 60_000);
afterAll(async () => close?.());

describe("the app's Prisma client", () => {
  it("queues a burst of interactive transactions for longer than Prisma's 2 s instead of failing them", async () => {
    expect(TRANSACTION_OPTIONS.maxWait).toBeGreaterThan(2_000);
    // 12 transactions of 250 ms each, one at a time on PGlite: the last waits ~2.75 s for its turn
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        db.$transaction(async (tx) => {
          await new Promise((r) => setTimeout(r, 250));
          return (await tx.$queryRawUnsafe<Array<{ n: number }>>(`SELECT ${i}::int AS n`))[0]!.n;
        }),
      ),
    );
    expect(
      outcomes
        .filter((o) => o.status === "rejected")
        .map((o) => String((o as PromiseRejectedResult).reason).slice(0, 200)),
    ).toEqual([]);
    expect(outcomes.map((o) => (o as PromiseFulfilledResult<number>).value)).toEqual(
      Array.from({ length: 12 }, (_, i) => i),
    );
  }, 60_000);
});
