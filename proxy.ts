import { NextResponse, type NextRequest } from "next/server";

/** Passes the requested page path to server components so a sign-in redirect can come back to it. */
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set("x-flowbench-path", `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ["/((?!api/|_next/|docs|favicon.ico).*)"] };
