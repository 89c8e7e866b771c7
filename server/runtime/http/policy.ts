/**
 * Which origins the http node may call. Pure (also used by server/env.ts to validate HTTP_ALLOWED_ORIGINS).
 *
 * Allowed: the origin of WEBHOOK_BASE_URL, plus each HTTP_ALLOWED_ORIGINS entry (comma-separated):
 * - `https://api.example.com[:port]`: exactly that origin ("explicit": it may resolve to a private or loopback
 *   address, e.g. a service on the same network);
 * - `https://*.example.com[:port]`: any subdomain, public addresses only;
 * - `*`: any http(s) origin, public addresses only.
 * Metadata and link-local addresses are refused for every entry (see address.ts).
 */

export type OriginRule =
  | { kind: "exact"; origin: string }
  | { kind: "wildcard"; protocol: "http:" | "https:"; suffix: string; port: string }
  | { kind: "any" };

export type OriginMatch = { allowed: false } | { allowed: true; explicit: boolean };

const WILDCARD = /^(https?):\/\/\*\.([a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(\d{1,5}))?\/?$/i;

function defaultPort(protocol: string): string {
  return protocol === "https:" ? "443" : "80";
}

/** Parses one entry; throws an Error with a readable message when it is not an origin. */
function parseRule(entry: string): OriginRule {
  if (entry === "*") return { kind: "any" };
  const wild = WILDCARD.exec(entry);
  if (wild) {
    const protocol = `${(wild[1] ?? "").toLowerCase()}:` as "http:" | "https:";
    return { kind: "wildcard", protocol, suffix: (wild[2] ?? "").toLowerCase(), port: wild[3] ?? defaultPort(protocol) };
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

/** The rules for a configuration: WEBHOOK_BASE_URL's origin first, then the list. */
export function originRules(webhookBaseUrl: string | undefined, allowedOrigins: string | undefined): OriginRule[] {
  const rules: OriginRule[] = [];
  if (webhookBaseUrl) {
    try {
      rules.push({ kind: "exact", origin: new URL(webhookBaseUrl).origin });
    } catch {
      /* validated at start-up; an unparsable value simply allows nothing */
    }
  }
  return rules.concat(parseAllowedOrigins(allowedOrigins));
}

/** Whether `url`'s origin is allowed, and whether explicitly (exact entry) or through a wildcard. */
export function matchOrigin(url: URL, rules: readonly OriginRule[]): OriginMatch {
  let wildcard = false;
  for (const rule of rules) {
    if (rule.kind === "exact" && rule.origin === url.origin) return { allowed: true, explicit: true };
    if (rule.kind === "any" && (url.protocol === "http:" || url.protocol === "https:")) wildcard = true;
    if (rule.kind === "wildcard" && url.protocol === rule.protocol && (url.port || defaultPort(url.protocol)) === rule.port) {
      const host = url.hostname.toLowerCase();
      if (host.endsWith(`.${rule.suffix}`)) wildcard = true;
    }
  }
  return wildcard ? { allowed: true, explicit: false } : { allowed: false };
}

/** A short description of the rules for error messages. */
export function describeRules(rules: readonly OriginRule[]): string {
  if (rules.length === 0) return "none (set WEBHOOK_BASE_URL or HTTP_ALLOWED_ORIGINS)";
  return rules.map((r) => (r.kind === "exact" ? r.origin : r.kind === "any" ? "*" : `${r.protocol}//*.${r.suffix}:${r.port}`)).join(", ");
}
