/**
 * Credentials never reach a stored trace: one redaction (`RunRedactor`) for everything a run stores, applied when it
 * is stored; the request, the values later nodes read and the caller's answer are untouched. The rule (by name, the
 * structural fields it keeps, by value) and its settings: server/runtime/behaviour.md, "Credentials in traces".
 */
export const REDACTED = "[redacted]";
export const SECRET_WORDS = [
  "apikey",
  "token",
  "secret",
  "password",
  "passwd",
  "pwd",
  "passphrase",
  "credential",
  "credentials",
  "auth",
  "authorization",
  "cookie",
  "signature",
  "authentication",
  "jwt",
  "passkey",
  "pin",
  "sig",
  "otp",
] as const;
export const SECRET_NAMES = [
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "api-key",
  "x-auth-token",
  "x-access-token",
  "key",
] as const;
/** `key` is a credential's word after one of these ("api_key", "accessKey", "private-key"), not on its own in a longer name ("memory_key"). */
export const KEY_QUALIFIERS = [
  "api",
  "access",
  "private",
  "secret",
  "client",
  "signing",
  "encryption",
  "master",
  "auth",
  "license",
  "subscription",
  "service",
  "app",
  "consumer",
  "session",
  "account",
  "x",
] as const;

export type RedactPolicy = { enabled: boolean; extra: readonly string[] };
export const DEFAULT_REDACT_POLICY: RedactPolicy = { enabled: true, extra: [] };

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
const words = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());

export function redactPolicyFrom(env: { TRACE_REDACT?: "on" | "off"; TRACE_REDACT_NAMES?: string }): RedactPolicy {
  return {
    enabled: env.TRACE_REDACT !== "off",
    extra: (env.TRACE_REDACT_NAMES ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  };
}

export function isSecretName(name: string, policy: RedactPolicy = DEFAULT_REDACT_POLICY): boolean {
  const whole = norm(name);
  const extra = policy.extra.map(norm);
  if ((SECRET_NAMES as readonly string[]).some((n) => norm(n) === whole) || extra.includes(whole)) return true;
  const ws = words(name);
  if (ws.some((w) => (SECRET_WORDS as readonly string[]).includes(w) || extra.includes(w))) return true;
  return ws.some((w, i) => w === "key" && i > 0 && (KEY_QUALIFIERS as readonly string[]).includes(ws[i - 1]!));
}

/** Fields a step's input or output carries at its top level that are never credentials, by node type. */
export const STRUCTURAL_FIELDS: Readonly<Record<string, readonly string[]>> = {
  memory_load: ["agentId", "scope", "memoryType", "key", "fields"],
  memory_save: ["agentId", "scope", "memoryType", "key"],
};

/**
 * Query parameters that carry a credential although their name is not a credential's anywhere else: an OAuth
 * authorization `code`. (A field named `code` in a step is a code node's source or an error code, so only urls.)
 */
export const SECRET_QUERY_NAMES = ["code"] as const;

/**
 * A url path segment that is a credential: a JWT, a token with a well-known prefix (OpenAI/Stripe `sk-`, GitHub,
 * GitLab, Slack, AWS access key ids), or an opaque value (at least 8 characters mixing letters and digits, or 20 of
 * any) right after a segment whose name is a credential's (`/reset-password/8f3a9c1b`, `/token/...`).
 */
const TOKEN_SEGMENT =
  /^(?:eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*|(?:sk|rk|pk)[-_][\w-]{12,}|gh[pousr]_\w{20,}|github_pat_\w{20,}|glpat-[\w-]{16,}|xox[abprs]-[\w-]{10,}|AKIA[0-9A-Z]{16})$/;
const OPAQUE_SEGMENT = /^(?=[\w.~%-]*\d)(?=[\w.~%-]*[A-Za-z])[\w.~%-]{8,}$|^[\w.~%-]{20,}$/;

/** Secrets shorter than this are not searched for in other text (too many false matches). */
export const MIN_SECRET_CHARS = 6;

/** Collects the string leaves of a redacted value as known secrets. */
function collect(value: unknown, found: Set<string> | undefined, depth = 0): void {
  if (!found || depth > 32) return;
  if (typeof value === "string" || typeof value === "number") {
    const text = String(value).trim();
    if (text.length >= MIN_SECRET_CHARS) found.add(text);
    const scheme = /^(?:bearer|basic|token|digest)\s+(\S+)$/i.exec(text);
    if (scheme && scheme[1]!.length >= MIN_SECRET_CHARS) found.add(scheme[1]!);
  } else if (value && typeof value === "object") {
    for (const v of Object.values(value as Record<string, unknown>)) collect(v, found, depth + 1);
  }
}

/** Replaces the values of credential-named parameters (and an OAuth `code`) in place; true when any was. */
function redactParams(params: URLSearchParams, policy: RedactPolicy, found?: Set<string>): boolean {
  let changed = false;
  for (const k of new Set(params.keys())) {
    if (isSecretName(k, policy) || (SECRET_QUERY_NAMES as readonly string[]).includes(k.toLowerCase())) {
      for (const v of params.getAll(k)) collect(v, found);
      params.set(k, REDACTED);
      changed = true;
    }
  }
  return changed;
}

/** A url with the values of credential-named query parameters (and any user:password) replaced. */
export function redactUrl(url: string, policy: RedactPolicy, found?: Set<string>): string {
  if (!policy.enabled) return url;
  let u: URL;
  try {
    u = new URL(url, "http://relative.invalid");
  } catch {
    return url;
  }
  let changed = false;
  if (u.password) {
    collect(decodeURIComponent(u.password), found);
    u.password = "redacted";
    changed = true;
  }
  const segments = u.pathname.split("/");
  segments.forEach((segment, i) => {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {}
    const previous = i > 0 ? segments[i - 1]! : "";
    if (TOKEN_SEGMENT.test(decoded) || (previous && isSecretName(previous, policy) && OPAQUE_SEGMENT.test(decoded))) {
      collect(decoded, found);
      segments[i] = REDACTED;
      changed = true;
    }
  });
  if (changed) u.pathname = segments.join("/");
  if (redactParams(u.searchParams, policy, found)) changed = true;
  // a fragment in query form carries credentials too (an OAuth implicit grant: `#access_token=...&state=...`)
  if (u.hash.includes("=")) {
    const fragment = new URLSearchParams(u.hash.slice(1));
    if (redactParams(fragment, policy, found)) {
      u.hash = fragment.toString();
      changed = true;
    }
  }
  if (!changed) return url;
  const out = u.toString();
  return url.startsWith("/") ? out.replace(/^http:\/\/relative\.invalid/, "") : out;
}

/**
 * A deep copy of `value` with credential-named fields replaced (and urls under `url`/`finalUrl` cleaned); the
 * replaced strings are added to `found`. `keep` names top-level fields left as they are (structural fields).
 */
export function redactDeep(
  value: unknown,
  policy: RedactPolicy = DEFAULT_REDACT_POLICY,
  depth = 0,
  found?: Set<string>,
  keep: readonly string[] = [],
): unknown {
  if (!policy.enabled || depth > 64) return value;
  if (typeof value === "string") return redactEmbedded(value, policy, depth, found);
  if (value === null || typeof value !== "object") return value;
  // copy on write: a value without credentials comes back as the same object (most steps)
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    value.forEach((v, i) => {
      const r = redactDeep(v, policy, depth + 1, found);
      if (r !== v) (copy ??= value.slice())[i] = r;
    });
    return copy ?? value;
  }
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    let r: unknown = v;
    if (depth === 0 && keep.includes(k)) r = v;
    else if (v !== null && v !== "" && typeof v !== "boolean" && secretName(k, policy)) {
      collect(v, found);
      r = REDACTED;
    } else if ((k === "url" || k === "finalUrl") && typeof v === "string") r = redactUrl(v, policy, found);
    else r = redactDeep(v, policy, depth + 1, found);
    if (r !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = r;
  }
  return out ?? value;
}

/** Bodies larger than this, given as strings, are not parsed (they are still searched for the run's secrets). */
const MAX_EMBEDDED_CHARS = 256 * 1024;
const FORM = /^[\w.~%+[\]-]+=[^&\s]*(?:&[\w.~%+[\]-]+=[^&\s]*)*$/;

/**
 * A string that holds a JSON object or array, or a form body (`user=u&password=...`), redacted like the value it
 * holds: an http body or answer given as text hides credentials as well as an object does. Other strings as they are.
 */
function redactEmbedded(text: string, policy: RedactPolicy, depth: number, found?: Set<string>): string {
  if (text.length < 3 || text.length > MAX_EMBEDDED_CHARS) return text;
  if (/^\s*[{[]/.test(text)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return text;
    }
    const redacted = redactDeep(parsed, policy, depth + 1, found);
    return redacted === parsed ? text : JSON.stringify(redacted);
  }
  if (!text.includes("=") || !FORM.test(text)) return redactHeaderText(text, policy, found);
  let changed = false;
  const pairs = text.split("&").map((pair) => {
    const at = pair.indexOf("=");
    let name = pair.slice(0, at);
    try {
      name = decodeURIComponent(name.replaceAll("+", " "));
    } catch {}
    const raw = pair.slice(at + 1);
    if (!raw || !secretName(name, policy)) return pair;
    let v = raw;
    try {
      v = decodeURIComponent(raw.replaceAll("+", " "));
    } catch {}
    collect(v, found);
    if (v !== raw) collect(raw, found); // also as sent (`p%40ss+word`), should it appear encoded elsewhere
    changed = true;
    return `${pair.slice(0, at)}=${REDACTED}`;
  });
  return changed ? pairs.join("&") : text;
}

/**
 * Header lines in text (`Authorization: Bearer ...`, `X-Api-Key: ...`, `Set-Cookie: ...`: an http response echoing
 * its request as text) and bearer tokens anywhere in text. A line's value is redacted when its name is a credential's
 * and the value is one token (or a scheme and a token; a cookie line whole): "Password: at least 8 characters" in
 * prose is not a credential.
 */
const HEADER_LINE = /^([ \t]*[A-Za-z][\w.-]*[ \t]*:[ \t]*)([^\r\n]*)$/gm; // linear: no nested or lazy repeats
const SCHEME_VALUE = /^(?:bearer|basic|token|digest)\s+\S+$/i;
const BEARER = /\b(Bearer\s+)([\w.~+/=-]{8,})/g;
/** A value from prose is searched for elsewhere only when it looks like a token (a digit in it, or 16+ characters). */
const TOKEN_LIKE = /\d|\S{16,}/;
function redactHeaderText(text: string, policy: RedactPolicy, found?: Set<string>): string {
  let out = text;
  if (out.includes(":"))
    out = out.replace(HEADER_LINE, (line, head: string, rest: string) => {
      const name = head.slice(0, head.indexOf(":")).trim();
      const value = rest.trim();
      if (!value || !secretName(name, policy)) return line;
      const tail = rest.slice(rest.trimEnd().length);
      const cookie = /cookie$/i.test(name);
      if (!cookie && /\s/.test(value) && !SCHEME_VALUE.test(value)) return line;
      if (TOKEN_LIKE.test(value)) collect(value, found);
      return `${head}${REDACTED}${tail}`;
    });
  if (out.includes("Bearer"))
    out = out.replace(BEARER, (match, scheme: string, token: string) => {
      if (!TOKEN_LIKE.test(token)) return match;
      collect(token, found);
      return `${scheme}${REDACTED}`;
    });
  return out;
}

/** isSecretName, remembered per policy (the same field names recur in every step of every run). */
const remembered = new WeakMap<RedactPolicy, Map<string, boolean>>();
function secretName(name: string, policy: RedactPolicy): boolean {
  let known = remembered.get(policy);
  if (!known) remembered.set(policy, (known = new Map()));
  let answer = known.get(name);
  if (answer === undefined) {
    answer = isSecretName(name, policy);
    if (known.size < 10_000) known.set(name, answer);
  }
  return answer;
}

/** An absolute http(s) url, or a path with a query string (a relative url or redirect target), inside text. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>`()]+|(?<![\w/.:])\/[^\s"'<>`()?]*\?[^\s"'<>`()]+/gi;

/** `text` with every known secret replaced (longest first) and the urls in it cleaned (redactUrl). */
export function redactText(text: string, policy: RedactPolicy, secrets: ReadonlySet<string>): string {
  if (!policy.enabled) return text;
  let out = text.replace(URL_IN_TEXT, (match) => {
    const [, url = match, tail = ""] = /^(.*?)([.,;:!]*)$/.exec(match) ?? [];
    return redactUrl(url, policy) + tail;
  });
  for (const secret of [...secrets].sort((a, b) => b.length - a.length))
    if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
  return out;
}

/** Text that may hold a url with credentials in it (cheap test before the regular expression). */
const mayHoldUrl = (text: string) => text.includes("://") || text.includes("?");

/**
 * `value` with every known secret replaced inside its strings and the urls in them cleaned (redactText); the same
 * value (not a copy) when nothing changes.
 */
export function redactValues(value: unknown, policy: RedactPolicy, secrets: ReadonlySet<string>, depth = 0): unknown {
  if (!policy.enabled || depth > 64) return value;
  if (typeof value === "string") return secrets.size || mayHoldUrl(value) ? redactText(value, policy, secrets) : value;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    value.forEach((v, i) => {
      const r = redactValues(v, policy, secrets, depth + 1);
      if (r !== v) (copy ??= value.slice())[i] = r;
    });
    return copy ?? value;
  }
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const r = redactValues(v, policy, secrets, depth + 1);
    if (r !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = r;
  }
  return out ?? value;
}

/**
 * The redaction of one run: what is stored of it passes through here. `field` redacts by name (collecting the
 * secrets it replaces), `value` replaces the secrets collected so far inside any text, `message` cleans an error
 * message. `messageField` is the start's message field, kept in the trace input and the start step.
 */
export class RunRedactor {
  readonly secrets = new Set<string>();
  constructor(
    readonly policy: RedactPolicy,
    readonly messageField?: string,
  ) {}

  /** The trace's input (and the start step's input and output): by name, the message field kept. */
  input(value: unknown): unknown {
    return redactDeep(value, this.policy, 0, this.secrets, this.messageField ? [this.messageField] : []);
  }

  /** A step's input or output by name, its type's structural fields kept. */
  step(type: string, value: unknown): unknown {
    if (type === "start") return this.input(value);
    return redactDeep(value, this.policy, 0, this.secrets, STRUCTURAL_FIELDS[type] ?? []);
  }

  /**
   * What the run answered (the end node's answer text or payload) as the trace stores it: by name (JSON and form
   * bodies inside strings included), collecting the secrets it finds. The caller still gets the answer as it is.
   */
  output<T>(value: T): T {
    return redactDeep(value, this.policy, 0, this.secrets) as T;
  }

  /** Any stored value with the run's known secrets replaced inside its text. */
  value<T>(value: T): T {
    return redactValues(value, this.policy, this.secrets) as T;
  }

  message(text: string): string {
    return redactText(text, this.policy, this.secrets);
  }
}
