/**
 * The grammar of HTTP_ALLOWED_ORIGINS (pure): parsed here, below every layer, so server/core/env.ts can validate the
 * variable at start-up and the runtime's http policy (server/runtime/http/policy.ts) can apply it.
 *
 * Allowed: the origin of WEBHOOK_BASE_URL, plus each HTTP_ALLOWED_ORIGINS entry (comma-separated):
 * - `https://api.example.com[:port]`: exactly that origin ("explicit": it may resolve to a private or loopback
 *   address, e.g. a service on the same network);
 * - `https://*.example.com[:port]`: any subdomain, public addresses only;
 * - `*`: any http(s) origin, public addresses only.
 * Metadata and link-local addresses are refused for every entry (server/runtime/http/address.ts).
 */

export type OriginRule =
  | { kind: "exact"; origin: string }
  | { kind: "wildcard"; protocol: "http:" | "https:"; suffix: string; port: string }
  | { kind: "any" };

export type OriginMatch = { allowed: false } | { allowed: true; explicit: boolean };

const WILDCARD = /^(https?):\/\/\*\.([a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(\d{1,5}))?\/?$/i;

export function defaultPort(protocol: string): string {
  return protocol === "https:" ? "443" : "80";
}

/** Parses one entry; throws an Error with a readable message when it is not an origin. */
function parseRule(entry: string): OriginRule {
  if (entry === "*") return { kind: "any" };
  const wild = WILDCARD.exec(entry);
  if (wild) {
    const protocol = `${(wild[1] ?? "").toLowerCase()}:` as "http:" | "https:";
    return {
      kind: "wildcard",
      protocol,
      suffix: (wild[2] ?? "").toLowerCase(),
      port: wild[3] ?? defaultPort(protocol),
    };
  }
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new Error(`"${entry}" is not an origin such as https://api.example.com`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`"${entry}" must use http or https`);
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash || url.username || url.password) {
    throw new Error(`"${entry}" must be an origin only (scheme, host and optional port, no path)`);
  }
  return { kind: "exact", origin: url.origin };
}

/** Parses the comma-separated list (empty entries ignored). Throws on a bad entry. */
export function parseAllowedOrigins(text: string | undefined): OriginRule[] {
  if (!text) return [];
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parseRule);
}

/** For env validation: a message describing the first bad entry, or null. */
export function allowedOriginsProblem(text: string | undefined): string | null {
  try {
    parseAllowedOrigins(text);
    return null;
  } catch (e) {
    return `HTTP_ALLOWED_ORIGINS: ${(e as Error).message}`;
  }
}
