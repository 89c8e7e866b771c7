import { NextResponse, type NextRequest } from "next/server";

/** A path whose percent-encoding is not UTF-8 (e.g. %ED%A0%80, an unpaired surrogate) cannot be decoded. */
function malformedPath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/**
 * API paths: a path Next.js could not decode into route parameters (it would answer 500 text/plain before any route
 * runs) is answered 400 REQUEST_INVALID in the one JSON error shape. Pages: passes the requested page path to server
 * components so a sign-in redirect can come back to it.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (pathname.startsWith("/api/")) {
    if (!malformedPath(pathname)) return NextResponse.next();
    return NextResponse.json(
      {
        error: {
          code: "REQUEST_INVALID",
          message: "The path is not valid percent-encoded UTF-8",
          details: [{ path: "path:", message: "not valid percent-encoded UTF-8", code: "malformed_path" }],
        },
      },
      { status: 400, headers: { "cache-control": "no-store" } },
    );
  }
  const headers = new Headers(request.headers);
  headers.set("x-flowbench-path", `${pathname}${search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ["/api/:path*", "/((?!api/|_next/|docs|favicon.ico).*)"] };
