/**
 * Which origins the http node may call: WEBHOOK_BASE_URL's origin plus the HTTP_ALLOWED_ORIGINS rules (grammar in
 * server/core/origins.ts). Pure. Metadata and link-local addresses are refused for every entry (see address.ts).
 */
import { defaultPort, parseAllowedOrigins, type OriginMatch, type OriginRule } from "../../core/origins";

export type { OriginMatch, OriginRule };

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
    if (
      rule.kind === "wildcard" &&
      url.protocol === rule.protocol &&
      (url.port || defaultPort(url.protocol)) === rule.port
    ) {
      const host = url.hostname.toLowerCase();
      if (host.endsWith(`.${rule.suffix}`)) wildcard = true;
    }
  }
  return wildcard ? { allowed: true, explicit: false } : { allowed: false };
}

/** A short description of the rules for error messages. */
export function describeRules(rules: readonly OriginRule[]): string {
  if (rules.length === 0) return "none (set WEBHOOK_BASE_URL or HTTP_ALLOWED_ORIGINS)";
  return rules
    .map((r) => (r.kind === "exact" ? r.origin : r.kind === "any" ? "*" : `${r.protocol}//*.${r.suffix}:${r.port}`))
    .join(", ");
}
