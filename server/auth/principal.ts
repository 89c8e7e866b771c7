import { getServerSession } from "next-auth";
import { getDb } from "../db/client";
import { errors } from "../core/errors";
import { authOptions } from "./nextauth";
import { principalFromToken, principalFromSession, type Principal } from "./service";

export type AuthMode = "token" | "token-or-session";

/** The methods that read only; every other one may change something. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Why a browser session may not make this request, or null (cross-site request forgery; OWASP's Fetch Metadata and
 * "verifying origin with standard headers"). A request that may change something and that a session cookie
 * authenticates must come from Flowbench's own pages. Browsers say where a request comes from in headers no page can
 * set: `Sec-Fetch-Site` (`same-origin` from our pages; `same-site`, `cross-site` otherwise), or, in a browser without
 * it, `Origin`, compared with the host the request was sent to (`X-Forwarded-Host` behind the balancer, else `Host`).
 * A request with neither is not a browser's and goes through: a client that holds the cookie itself can send anything
 * anyway. The session cookie's SameSite=Lax already keeps other sites' requests out, but not a sibling's on the same
 * site (another port or subdomain of the same domain), whose form could POST to a body-less endpoint.
 */
export function crossSiteReason(headers: Headers, method: string): string | null {
  if (SAFE_METHODS.has(method.toUpperCase())) return null;
  const site = headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" || site === "none" ? null : `it came from a ${site} page`;
  const origin = headers.get("origin");
  if (origin === null) return null;
  const target = (headers.get("x-forwarded-host") ?? headers.get("host") ?? "").split(",")[0]!.trim().toLowerCase();
  let from: string;
  try {
    from = new URL(origin).host.toLowerCase();
  } catch {
    return `its origin (${origin.slice(0, 100)}) is not a page's`;
  }
  return from === target ? null : `it came from ${origin.slice(0, 100)}, not from ${target || "this host"}`;
}

/**
 * Who is calling. A present Authorization header must be a valid bearer token (no fallback to the session, so a
 * bad token is a clear 401 rather than silently acting as the browser's user). Without one, the session counts
 * only where the path accepts sessions, and for a request that may change something only from Flowbench's own pages
 * (`crossSiteReason`: 403 CROSS_SITE_REQUEST otherwise).
 */
export async function resolvePrincipal(headers: Headers, mode: AuthMode, method = "GET"): Promise<Principal | null> {
  const db = await getDb();
  const header = headers.get("authorization");
  if (header !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1] ? principalFromToken(db, match[1]) : null;
  }
  if (mode !== "token-or-session") return null;
  const session = await getServerSession(authOptions());
  if (!session?.user?.id) return null;
  const refused = crossSiteReason(headers, method);
  if (refused) throw errors.crossSite(refused);
  return principalFromSession(db, session.user);
}
