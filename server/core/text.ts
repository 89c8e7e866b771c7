/**
 * Text PostgreSQL cannot store: a NUL character (text and jsonb refuse 0x00) and unpaired UTF-16 surrogates
 * (JSON.parse accepts "\ud800"; they are not valid UTF-8).
 *
 * Two rules, one per direction:
 * - **Input is refused**: every input of both faces passes through `findUnstorable` before its schema
 *   (server/http/endpoint.ts for REST path, query and body; the tRPC base procedure in server/api/trpc.ts), and so
 *   does every value decoded later from an uploaded file (server/eval/sets/records.ts: a `\u0000` escape in a JSON/JSONL file
 *   or in a CSV cell's JSON becomes NUL only then; a row error). Such a value is a 400 naming its field, never a
 *   database error. A value nested deeper than `MAX_INPUT_DEPTH` is refused the same way (it cannot be checked,
 *   and no schema of the API nests that deep).
 * - **Produced text is made storable**: what the runtime produces (a code node's result, an http or model answer)
 *   is not the caller's input to refuse, so `toStorable` replaces NUL and unpaired surrogates with U+FFFD before a
 *   run's answer, payload, steps and error are stored or returned (server/runtime/executor.ts).
 */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_ALL = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The same rule as a JSON Schema `pattern` (ECMA-262, with or without the `u` flag), which the OpenAPI document puts
 * on every input string and object key (server/http/openapi.ts): each character is neither NUL nor a surrogate, or
 * is a high surrogate followed by a low one.
 */
export const STORABLE_TEXT_PATTERN = "^(?:[^\\u0000\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])*$";

/** Nesting deeper than this (objects and arrays) is refused as input. */
export const MAX_INPUT_DEPTH = 100;

export const UNSTORABLE_TEXT_MESSAGE =
  "contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored";
export const TOO_DEEP_MESSAGE = `is nested deeper than ${MAX_INPUT_DEPTH} levels`;

/** What `findUnstorable` found: the JSON pointer, a message and the detail code (`unstorable_text` | `too_deep`). */
export type Unstorable = { path: string; message: string; code: "unstorable_text" | "too_deep" };

const pointer = (segment: string | number) => `/${String(segment).replaceAll("~", "~0").replaceAll("/", "~1")}`;

/** The first string (or object key) holding unstorable text, or the first value nested too deep; null if none. */
export function findUnstorable(value: unknown, path = "", depth = 0): Unstorable | null {
  if (typeof value === "string")
    return UNSTORABLE.test(value)
      ? { path: path || "/", message: UNSTORABLE_TEXT_MESSAGE, code: "unstorable_text" }
      : null;
  if (value === null || typeof value !== "object") return null;
  if (depth >= MAX_INPUT_DEPTH) return { path: path || "/", message: TOO_DEEP_MESSAGE, code: "too_deep" };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorable(value[i], `${path}${pointer(i)}`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (UNSTORABLE.test(k))
      return { path: `${path}${pointer(k)}`, message: UNSTORABLE_TEXT_MESSAGE, code: "unstorable_text" };
    const found = findUnstorable(v, `${path}${pointer(k)}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Text with NUL and unpaired surrogates replaced by U+FFFD (unchanged, same string, when there are none). */
export function toStorableText(text: string): string {
  return UNSTORABLE.test(text) ? text.replace(UNSTORABLE_ALL, "\ufffd") : text;
}

/**
 * A JSON-like value whose strings and keys PostgreSQL can store (see toStorableText). Returns the same value when
 * nothing needed replacing, so the common case copies nothing. Values nested deeper than `maxDepth` are replaced
 * by null (the runtime's own values never nest that deep; JSON.stringify would overflow first).
 */
export function toStorable<T>(value: T, maxDepth = 1000): T {
  return storable(value, 0, maxDepth) as T;
}

function storable(value: unknown, depth: number, maxDepth: number): unknown {
  if (typeof value === "string") return toStorableText(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= maxDepth) return null;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = storable(value[i], depth + 1, maxDepth);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  if (!isPlain(value)) return value;
  let out: Record<string, unknown> | null = null;
  const entries = Object.entries(value as Record<string, unknown>);
  for (const [k, v] of entries) {
    const key = toStorableText(k);
    const next = storable(v, depth + 1, maxDepth);
    if (key !== k || next !== v) {
      out ??= { ...(value as Record<string, unknown>) };
      if (key !== k) delete out[k];
      out[key] = next;
    }
  }
  return out ?? value;
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
