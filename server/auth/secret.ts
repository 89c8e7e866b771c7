import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type { Db } from "../db/client";

type Globals = { __flowbenchSharedAuthSecret?: string };
const globals = globalThis as typeof globalThis & Globals;

/**
 * On a PostgreSQL server, without NEXTAUTH_SECRET: the key generated once and kept in the database (table
 * AppSecret), so every instance behind a load balancer signs and reads sessions with the same key. Called by
 * start-up after migrations; the first instance's INSERT wins, the others read it.
 */
export async function loadSharedAuthSecret(db: Db): Promise<void> {
  if (process.env.NEXTAUTH_SECRET) return;
  await db.$executeRaw`INSERT INTO "AppSecret" ("name", "value") VALUES ('nextauth', ${randomBytes(32).toString("base64url")}) ON CONFLICT ("name") DO NOTHING`;
  const row = await db.appSecret.findUniqueOrThrow({ where: { name: "nextauth" } });
  globals.__flowbenchSharedAuthSecret = row.value;
}

/**
 * The key next-auth signs sessions with: NEXTAUTH_SECRET when set; on a PostgreSQL server the one kept in the
 * database (loadSharedAuthSecret); otherwise (the embedded database, one process) one generated on first start and
 * kept in the ignored data folder (FLOWBENCH_DATA_DIR, default ./data), so `npm install && npm start` works with
 * no configuration and sessions survive restarts. Never committed.
 */
export function authSecret(): string {
  const fromEnv = process.env.NEXTAUTH_SECRET;
  if (fromEnv) return fromEnv;
  if (globals.__flowbenchSharedAuthSecret) return globals.__flowbenchSharedAuthSecret;
  const dir = path.resolve(/*turbopackIgnore: true*/ process.env.FLOWBENCH_DATA_DIR ?? "data");
  const file = path.join(dir, ".auth-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e; // another process won the race: use theirs
    }
    return fs.readFileSync(file, "utf8").trim();
  }
}
