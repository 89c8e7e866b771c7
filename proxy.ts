import { NextResponse, type NextRequest } from "next/server";

/**
 * Pages only: passes the requested page path to server components so a sign-in redirect can come back to it. Not on
 * API paths: Next reads a request's whole body before running proxy.ts (to give it a copy), so API requests would be
 * read to their end before their route could refuse them on their headers (server/core/body.ts); the undecodable-path
 * answer this file gave API paths is server/http/path-guard.ts's, before Next.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const headers = new Headers(request.headers);
  headers.set("x-flowbench-path", `${pathname}${search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ["/((?!api/|_next/|docs|favicon.ico).*)"] };
