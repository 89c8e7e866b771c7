import NextAuth, { type NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "../db/client";
import { authSecret } from "./secret";
import { NextRequest } from "next/server";
import { closeIfUnread, limitBody } from "../core/body";
import { CLIENT_ADDRESS_HEADER, normalizeClientAddress } from "../core/client-address";
import { ApiError } from "../core/errors";
import { authenticatePassword } from "./service";
import { throttledLogin, throttledMessage, throttledSeconds } from "./throttle";
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
        async authorize(credentials, req) {
          const email = credentials?.email ?? "";
          const password = credentials?.password ?? "";
          if (!email || !password || email.length > 254 || password.length > 200) return null;
          const db = await getDb();
          // the front door's header (server/http/client-address.ts), never what the client says it is
          const header = (req?.headers as Record<string, string | undefined> | undefined)?.[CLIENT_ADDRESS_HEADER];
          const outcome = await throttledLogin(db, { email, address: normalizeClientAddress(header) }, () =>
            authenticatePassword(db, email, password),
          );
          // next-auth answers a thrown error as `?error=<message>`; authRoute makes that a 429 with Retry-After
          if ("throttled" in outcome) throw new Error(throttledMessage(outcome.throttled));
          const user = outcome.result;
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

/** The largest body next-auth's routes take (a sign-in form: CSRF token, e-mail, password, callback URL). */
export const AUTH_MAX_BODY_BYTES = 64 * 1024;

/**
 * next-auth's route (app/api/auth/[...nextauth]/route.ts). Its body is read by the one rule (server/core/body.ts): a
 * larger `Content-Length` than AUTH_MAX_BODY_BYTES is 413 PAYLOAD_TOO_LARGE before a byte is read, a chunked body is
 * cut at the limit (next-auth itself would read any body whole, before anyone is signed in). A sign-in refused by the
 * login throttle (server/auth/throttle.ts) is answered 429 with `Retry-After` and the error in the one shape (code
 * LOGIN_THROTTLED) beside the `url` next-auth's client reads (its `error` parameter, `LOGIN_THROTTLED:<seconds>`, is
 * what `signIn(..., { redirect: false })` returns); every other answer is next-auth's own.
 */
export async function authRoute(request: NextRequest, context: { params: Promise<{ nextauth: string[] }> }) {
  let req = request;
  if (request.method !== "GET" && request.method !== "HEAD") {
    const guarded = limitBody(request, AUTH_MAX_BODY_BYTES);
    let body: string;
    try {
      body = await guarded.text();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const refusal = new Response(JSON.stringify(e.body()), {
        status: e.status,
        headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
      });
      return closeIfUnread(refusal, guarded.unread());
    }
    req = new NextRequest(request.url, { method: request.method, headers: request.headers, body });
  }
  const response: Response = await NextAuth(authOptions())(req, context);
  if (response.status !== 401 || !response.headers.get("content-type")?.includes("application/json")) return response;
  const answer = (await response
    .clone()
    .json()
    .catch(() => null)) as { url?: unknown } | null;
  let seconds: number | null = null;
  try {
    if (typeof answer?.url === "string") seconds = throttledSeconds(new URL(answer.url).searchParams.get("error"));
  } catch {
    seconds = null;
  }
  if (seconds === null) return response;
  const headers = new Headers(response.headers);
  headers.set("retry-after", String(seconds));
  headers.set("cache-control", "no-store");
  const refusal = new ApiError(
    429,
    "LOGIN_THROTTLED",
    `Too many sign-in attempts; try again in ${seconds} s`,
    [{ retryAfterSeconds: seconds }],
    { url: answer!.url },
  );
  return new Response(JSON.stringify(refusal.body()), { status: 429, headers });
}
