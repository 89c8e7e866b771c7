import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "../db/client";
import { authSecret } from "./secret";
import { authenticatePassword } from "./service";
import type { Role } from "./roles";

declare module "next-auth" {
  interface Session {
    user: { id: string; email: string; name?: string | null; role: Role; authAt?: number };
  }
  interface User {
    role: Role;
  }
}
declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    role?: Role;
    /** When this session signed in (ms): sessions from before the user's sessionsValidFrom no longer count. */
    authAt?: number;
  }
}

let options: NextAuthOptions | undefined;

/** First line of what next-auth reports (an Error, `{ error }`, or anything), without the stack. */
function oneLine(metadata: unknown): string {
  const m = metadata as { error?: unknown; message?: unknown } | undefined;
  const e = m && typeof m === "object" && "error" in m ? m.error : metadata;
  const text =
    e instanceof Error
      ? e.message
      : typeof (e as { message?: unknown })?.message === "string"
        ? String((e as { message: string }).message)
        : e === undefined
          ? ""
          : String(e);
  return text.split("\n")[0]!.slice(0, 300);
}

/**
 * next-auth's own logger prints a multi-line stack per request for a forged or stale session cookie (e.g.
 * JWT_SESSION_ERROR); one line per event keeps the log readable when someone fuzzes cookies. Debug stays off.
 */
export const authLogger = {
  error(code: string, metadata: unknown) {
    console.error(`[auth] ${code}: ${oneLine(metadata)}`);
  },
  warn(code: string) {
    console.warn(`[auth] warning ${code}`);
  },
  debug() {},
} satisfies NextAuthOptions["logger"];

/** next-auth 4 with e-mail/password credentials and JWT sessions (12 h). Every protected path re-reads the user from
 * the database (principalFromSession): a disabled user, or a session older than a change of password or role, is
 * signed out at once on every instance. */
export function authOptions(): NextAuthOptions {
  options ??= {
    secret: authSecret(),
    logger: authLogger,
    session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "E-mail and password",
        credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          const email = credentials?.email ?? "";
          const password = credentials?.password ?? "";
          if (!email || !password || email.length > 254 || password.length > 200) return null;
          const user = await authenticatePassword(await getDb(), email, password);
          return user ? { id: user.id, email: user.email, name: user.name, role: user.role } : null;
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          token.uid = user.id;
          token.role = user.role;
          token.authAt = Date.now();
        }
        return token;
      },
      session({ session, token }) {
        if (token.uid)
          session.user = {
            ...session.user,
            id: token.uid,
            email: session.user?.email ?? "",
            role: token.role ?? "viewer",
            authAt: token.authAt,
          };
        return session;
      },
    },
  };
  return options;
}
