/**
 * Credentials never reach a stored trace: one redaction (`RunRedactor`) for everything a run stores, applied when it
 * is stored; the request, the values later nodes read and the caller's answer are untouched. The rule (by name, the
 * structural fields it keeps, by value) and its settings: server/runtime/behaviour.md, "How a run goes".
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
  for (const k of new Set(u.searchParams.keys())) {
    if (isSecretName(k, policy)) {
      for (const v of u.searchParams.getAll(k)) collect(v, found);
      u.searchParams.set(k, REDACTED);
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
  if (!policy.enabled || value === null || typeof value !== "object" || depth > 64) return value;
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

/** A deep copy of `value` whose strings have every known secret replaced (redactText); same value when none. */
export function redactValues(value: unknown, policy: RedactPolicy, secrets: ReadonlySet<string>, depth = 0): unknown {
  if (!policy.enabled || depth > 64) return value;
  if (!secrets.size) return value;
  if (typeof value === "string") return redactText(value, policy, secrets);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redactValues(v, policy, secrets, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, redactValues(v, policy, secrets, depth + 1)]),
  );
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

  /** Any stored value with the run's known secrets replaced inside its text. */
  value<T>(value: T): T {
    return redactValues(value, this.policy, this.secrets) as T;
  }

  message(text: string): string {
    return redactText(text, this.policy, this.secrets);
  }
}
