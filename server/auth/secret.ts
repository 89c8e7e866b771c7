import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";

/**
 * The key next-auth signs sessions with: NEXTAUTH_SECRET when set, otherwise one generated on first start and
 * kept in the ignored data folder (FLOWBENCH_DATA_DIR, default ./data), so `npm install && npm start` works with
 * no configuration and sessions survive restarts. Never committed.
 */
export function authSecret(): string {
  const fromEnv = process.env.NEXTAUTH_SECRET;
  if (fromEnv) return fromEnv;
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
