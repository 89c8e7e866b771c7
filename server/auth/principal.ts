import { getServerSession } from "next-auth";
import { getDb } from "../db/client";
import { authOptions } from "./nextauth";
import { principalFromToken, principalFromSession, type Principal } from "./service";

export type AuthMode = "token" | "token-or-session";

/**
 * Who is calling. A present Authorization header must be a valid bearer token (no fallback to the session, so a
 * bad token is a clear 401 rather than silently acting as the browser's user). Without one, the session counts
 * only where the path accepts sessions.
 */
export async function resolvePrincipal(headers: Headers, mode: AuthMode): Promise<Principal | null> {
  const db = await getDb();
  const header = headers.get("authorization");
  if (header !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1] ? principalFromToken(db, match[1]) : null;
  }
  if (mode !== "token-or-session") return null;
  const session = await getServerSession(authOptions());
  return session?.user?.id ? principalFromSession(db, session.user) : null;
}
