/**
 * `{{node_id.field}}` templates: parsing (for validation and the canvas) and rendering (for the runtime).
 *
 * Grammar: `{{` ws* NODE_ID `.` FIELD (`.` SEGMENT)* ws* `}}`, where every part is made of letters,
 * digits, `_` and `-`. FIELD must be an output field of NODE_ID; SEGMENTs are a path into that field's
 * value (object keys, or array indexes written as digits). A literal `{{` is written `\{{`.
 * Only `{{` opens a template, so JSON such as `{"a":{"b":1}}` in a prompt is plain text.
 */

/** Characters allowed in a node id, field or path segment inside a template. */
export const TEMPLATE_SEGMENT_SOURCE = "[A-Za-z0-9_-]+";
/** A well-formed template, as a regular expression source (for documentation and the canvas). */
export const TEMPLATE_PATTERN_SOURCE =
  "\\{\\{\\s*([A-Za-z0-9_-]+)\\.([A-Za-z0-9_-]+)((?:\\.[A-Za-z0-9_-]+)*)\\s*\\}\\}";

const SEGMENT_RE = /^[A-Za-z0-9_-]+$/;

/** True when `id` can be written as the node id of a template. */
export function isTemplateNodeId(id: string): boolean {
  return SEGMENT_RE.test(id);
}

export interface TemplateRef {
  /** The whole template text, braces included. */
  raw: string;
  nodeId: string;
  /** The output field of the node. */
  field: string;
  /** Deeper path into the field's value (may be empty). */
  path: string[];
  /** Offset of `{{` in the text. */
  start: number;
  /** Offset just after `}}`. */
  end: number;
}

export type TemplateErrorKind = "unclosed" | "empty" | "no_field" | "bad_characters" | "empty_segment";

export interface TemplateError {
  kind: TemplateErrorKind;
  /** A sentence describing the problem, including the character offset. */
  message: string;
  raw: string;
  start: number;
  end: number;
}

export interface TemplateScan {
  refs: TemplateRef[];
  errors: TemplateError[];
}

type Token =
  | { kind: "text"; value: string }
  | { kind: "ref"; ref: TemplateRef }
  | { kind: "error"; error: TemplateError };

const BACKSLASH = 92;

function errorToken(kind: TemplateErrorKind, raw: string, start: number, end: number): Token {
  const shown = raw.length > 40 ? `${raw.slice(0, 40)}...` : raw;
  const what: Record<TemplateErrorKind, string> = {
    unclosed: `Template "${shown}" at character ${start} is not closed with "}}"`,
    empty: `Template at character ${start} is empty; write {{node_id.field}}`,
    no_field: `Template "${shown}" at character ${start} has no field; write {{node_id.field}}`,
    bad_characters: `Template "${shown}" at character ${start} contains characters other than letters, digits, "_", "-" and "."`,
    empty_segment: `Template "${shown}" at character ${start} has an empty part between dots`,
  };
  return { kind: "error", error: { kind, message: `${what[kind]}.`, raw, start, end } };
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0;
}

// Letters, digits, "_" and "-".
function isSegmentChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
}

/** Parses the text between `{{` at `start` and `}}` ending at `end`, by hand: this runs for every template. */
function parseInner(text: string, start: number, end: number): Token {
  let a = start + 2;
  let b = end - 2;
  while (a < b && isSpace(text.charCodeAt(a))) a++;
  while (b > a && isSpace(text.charCodeAt(b - 1))) b--;
  if (a === b) return errorToken("empty", text.slice(start, end), start, end);
  const parts: string[] = [];
  let segmentStart = a;
  let emptySegment = false;
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (i === segmentStart) emptySegment = true;
      parts.push(text.slice(segmentStart, i));
      segmentStart = i + 1;
    } else if (!isSegmentChar(c)) {
      return errorToken("bad_characters", text.slice(start, end), start, end);
    }
  }
  if (segmentStart === b) emptySegment = true;
  parts.push(text.slice(segmentStart, b));
  if (parts.length < 2) return errorToken("no_field", text.slice(start, end), start, end);
  if (emptySegment) return errorToken("empty_segment", text.slice(start, end), start, end);
  const nodeId = parts[0] as string;
  const field = parts[1] as string;
  const path = parts.length > 2 ? parts.slice(2) : [];
  return { kind: "ref", ref: { raw: text.slice(start, end), nodeId, field, path, start, end } };
}

/**
 * Splits text into literal text (only when `withText`), references and malformed templates.
 * Linear in the text length: the next "}}" is searched once and reused.
 */
function tokenize(text: string, withText: boolean): Token[] {
  const tokens: Token[] = [];
  let literalStart = 0;
  let i = 0;
  let close = -2; // cached offset of the next "}}", -1 once none is left
  for (;;) {
    const open = text.indexOf("{{", i);
    if (open < 0) break;
    if (open > 0 && text.charCodeAt(open - 1) === BACKSLASH) {
      // `\{{` is a literal `{{`: drop the backslash.
      if (withText) {
        if (open - 1 > literalStart) tokens.push({ kind: "text", value: text.slice(literalStart, open - 1) });
        tokens.push({ kind: "text", value: "{{" });
      }
      literalStart = i = open + 2;
      continue;
    }
    if (close !== -1 && close < open + 2) close = text.indexOf("}}", open + 2);
    if (withText && open > literalStart) tokens.push({ kind: "text", value: text.slice(literalStart, open) });
    if (close === -1) {
      // No "}}" anywhere after this point: one error covers the rest of the text.
      tokens.push(errorToken("unclosed", text.slice(open), open, text.length));
      literalStart = i = text.length;
      break;
    }
    const nested = text.indexOf("{{", open + 2);
    if (nested >= 0 && nested < close) {
      tokens.push(errorToken("unclosed", text.slice(open, nested), open, nested));
      literalStart = i = nested;
      continue;
    }
    tokens.push(parseInner(text, open, close + 2));
    literalStart = i = close + 2;
  }
  if (withText && text.length > literalStart) tokens.push({ kind: "text", value: text.slice(literalStart) });
  return tokens;
}

/** All well-formed references and all malformed templates in `text`, with character offsets. */
export function extractTemplateRefs(text: string): TemplateScan {
  const scan: TemplateScan = { refs: [], errors: [] };
  if (text.indexOf("{{") < 0) return scan; // the common case: no template at all
  for (const token of tokenize(text, false)) {
    if (token.kind === "ref") scan.refs.push(token.ref);
    else if (token.kind === "error") scan.errors.push(token.error);
  }
  return scan;
}

/** True when the text contains at least one `{{` (escaped or not). Cheap pre-check. */
export function hasTemplate(text: string): boolean {
  return text.indexOf("{{") >= 0;
}

/** Outputs of already-run nodes: `scope[nodeId][field]...`. */
export type TemplateScope = Readonly<Record<string, unknown>>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Looks up `nodeId.field.path...` in the scope. Only own properties are followed (no prototype
 * access such as `__proto__`); digit segments index arrays.
 */
export function resolveTemplateRef(
  scope: TemplateScope,
  ref: Pick<TemplateRef, "nodeId" | "field" | "path">,
): { found: boolean; value: unknown } {
  let current: unknown = scope;
  for (const segment of [ref.nodeId, ref.field, ...ref.path]) {
    if (Array.isArray(current) && /^\d+$/.test(segment)) {
      const index = Number(segment);
      if (index >= current.length) return { found: false, value: undefined };
      current = current[index];
    } else if (isRecord(current) && Object.hasOwn(current, segment)) {
      current = current[segment];
    } else {
      return { found: false, value: undefined };
    }
  }
  return { found: current !== undefined, value: current };
}

/** How a value is written into a string: strings as-is, null/missing as "", objects as JSON. */
export function formatTemplateValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) ?? "";
  } catch {
    return String(value);
  }
}

/**
 * Renders every `{{node.field.path}}` in `text` from `scope`. Missing values render as "",
 * objects and arrays as JSON, malformed templates are kept as written, `\{{` becomes `{{`.
 */
export function renderTemplate(text: string, scope: TemplateScope): string {
  if (text.indexOf("{{") < 0) return text;
  let out = "";
  for (const token of tokenize(text, true)) {
    if (token.kind === "text") out += token.value;
    else if (token.kind === "ref") out += formatTemplateValue(resolveTemplateRef(scope, token.ref).value);
    else out += token.error.raw;
  }
  return out;
}

/**
 * Like renderTemplate, but when the whole string (ignoring surrounding whitespace) is a single
 * template, returns the referenced value with its type kept (an object stays an object), so a JSON
 * body `{"items": "{{http_1.result}}"}` can carry structured data. A missing value gives "".
 */
export function renderTemplateValue(text: string, scope: TemplateScope): unknown {
  const tokens = tokenize(text, true);
  const meaningful = tokens.filter((t) => !(t.kind === "text" && t.value.trim() === ""));
  const only = meaningful[0];
  if (meaningful.length === 1 && only?.kind === "ref") {
    const { found, value } = resolveTemplateRef(scope, only.ref);
    return found ? value : "";
  }
  return renderTemplate(text, scope);
}

const MAX_RENDER_DEPTH = 200;

/** Renders templates in every string inside a JSON-like value (objects, arrays), keeping structure. */
export function renderTemplatesDeep(value: unknown, scope: TemplateScope, depth = 0): unknown {
  if (typeof value === "string") return renderTemplateValue(value, scope);
  if (depth >= MAX_RENDER_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => renderTemplatesDeep(v, scope, depth + 1));
  if (isRecord(value)) {
    // fromEntries defines own properties, so a "__proto__" key stays a plain key.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderTemplatesDeep(v, scope, depth + 1)]));
  }
  return value;
}
