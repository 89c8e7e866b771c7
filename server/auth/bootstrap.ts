import type { Db } from "../db/client";
import type { Env } from "../core/env";
import { generatePassword, generateToken, hashPassword, hashToken, tokenPrefix } from "./crypto";

/**
 * Makes sure a first user can get in.
 * - Headless (all three FLOWBENCH_INIT_* set): ensure that admin exists with that password and that this exact
 *   token is a valid admin token (stored hashed). Idempotent on every start; an existing revoked row for the
 *   token is restored, because the operator asked for this token to work.
 * - Otherwise, on the first start only (no users yet): create admin@flowbench.local with a random one-time
 *   password and an admin token, and print both once.
 */
export async function bootstrapAccess(db: Db, env: Env, log: (line: string) => void = console.log): Promise<void> {
  if (env.FLOWBENCH_INIT_ADMIN_EMAIL && env.FLOWBENCH_INIT_ADMIN_PASSWORD && env.FLOWBENCH_INIT_API_TOKEN) {
    const email = env.FLOWBENCH_INIT_ADMIN_EMAIL.toLowerCase();
    const passwordHash = await hashPassword(env.FLOWBENCH_INIT_ADMIN_PASSWORD);
    const admin = await db.user.upsert({
      where: { email },
      create: { email, name: "Administrator", role: "admin", passwordHash },
      update: { role: "admin", disabledAt: null, passwordHash },
    });
    const tokenHash = hashToken(env.FLOWBENCH_INIT_API_TOKEN);
    await db.apiToken.upsert({
      where: { tokenHash },
      create: {
        name: "headless init token",
        role: "admin",
        tokenHash,
        prefix: tokenPrefix(env.FLOWBENCH_INIT_API_TOKEN),
        ownerId: admin.id,
      },
      update: { role: "admin", revokedAt: null },
    });
    log(`[flowbench] headless init: admin ${email} and the FLOWBENCH_INIT_API_TOKEN admin token are ready`);
    return;
  }
  if ((await db.user.count()) > 0) return;
  const email = "admin@flowbench.local";
  const password = generatePassword();
  const token = generateToken();
  const admin = await db.user.create({
    data: { email, name: "Administrator", role: "admin", passwordHash: await hashPassword(password) },
  });
  await db.apiToken.create({
    data: {
      name: "first-start admin token",
      role: "admin",
      tokenHash: hashToken(token),
      prefix: tokenPrefix(token),
      ownerId: admin.id,
    },
  });
  log(
    [
      "",
      "==================== Flowbench first start ====================",
      `  Admin login:     ${email}`,
      `  Password:        ${password}`,
      `  Admin API token: ${token}`,
      "  These are shown ONCE and stored only as hashes. Sign in and change",
      "  the password / create new tokens under Settings.",
      "===============================================================",
      "",
    ].join("\n"),
  );
}
