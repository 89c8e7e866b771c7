/**
 * Condition expressions in CEL (Common Expression Language), via @marcbachmann/cel-js: parsed to an
 * AST and interpreted, never `eval`ed. Upstream node outputs are visible as maps named by node id:
 * `start.query != "" && http_1.status == 200`.
 *
 * Values come from JSON, so numbers are CEL doubles; comparisons across int and double work
 * (`http_1.status == 200`), arithmetic needs double literals (`llm_1.usage.total_tokens + 1.0`).
 */
import { parse, type ASTNode, type ParseResult } from "@marcbachmann/cel-js";

export interface ExpressionIdentifier {
  /** The root variable, normally a node id. */
  root: string;
  /** The first selected field (`start.query` -> "query", `start["query"]` -> "query"), if static. */
  field?: string;
}

export interface ParsedExpression {
  ok: boolean;
  /** Parser message when `ok` is false. */
  error?: string;
  /** Character offset of the parse error, when known. */
  errorOffset?: number;
  /** Free variables of the expression (macro-bound variables and CEL built-ins excluded). */
  identifiers: ExpressionIdentifier[];
}

// Identifiers CEL itself defines: type names and the `cel` namespace used by cel.bind.
const BUILTIN_IDENTIFIERS = new Set([
  "int",
  "uint",
  "double",
  "bool",
  "string",
  "bytes",
  "list",
  "map",
  "null_type",
  "type",
  "dyn",
  "cel",
  "optional",
  "timestamp",
  "duration",
]);
// Macros whose first argument names a variable bound inside the other arguments.
const COMPREHENSION_MACROS = new Set(["all", "exists", "exists_one", "map", "filter"]);

const CACHE_LIMIT = 2000;
const parseCache = new Map<string, ParseResult>();

function parseCached(src: string): ParseResult {
  const hit = parseCache.get(src);
  if (hit) return hit;
  const parsed = parse(src);
  // Bounded, oldest first out: the canvas re-validates the same expressions on every edit.
  if (parseCache.size >= CACHE_LIMIT) {
    const oldest = parseCache.keys().next();
    if (!oldest.done) parseCache.delete(oldest.value);
  }
  parseCache.set(src, parsed);
  return parsed;
}

function errorMessage(err: unknown): string {
  if (err instanceof Error) {
    // cel-js appends a source excerpt with a caret on the following lines; keep the first line.
    return (err.message.split("\n")[0] ?? err.message).trim();
  }
  return String(err);
}

function errorOffset(err: unknown): number | undefined {
  if (typeof err === "object" && err !== null && "range" in err) {
    const range = (err as { range?: { start?: unknown } }).range;
    if (range && typeof range.start === "number") return range.start;
  }
  return undefined;
}

/** Collects free identifiers with an explicit stack (no recursion), honouring macro-bound names. */
function collectIdentifiers(ast: ASTNode): ExpressionIdentifier[] {
  const out: ExpressionIdentifier[] = [];
  const seen = new Set<string>();
  const add = (root: string, bound: ReadonlySet<string>, field?: string) => {
    if (bound.has(root) || BUILTIN_IDENTIFIERS.has(root)) return;
    const key = field === undefined ? root : `${root}\u0000${field}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(field === undefined ? { root } : { root, field });
  };
  const empty: ReadonlySet<string> = new Set();
  const stack: Array<[ASTNode, ReadonlySet<string>]> = [[ast, empty]];
  const withVar = (bound: ReadonlySet<string>, name: string) => new Set([...bound, name]);
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, bound] = item;
    switch (node.op) {
      case "value":
        break;
      case "id":
        add(node.args, bound);
        break;
      case ".":
      case ".?": {
        const [target, field] = node.args;
        if (target.op === "id") add(target.args, bound, field);
        else stack.push([target, bound]);
        break;
      }
      case "[]":
      case "[?]": {
        const [target, index] = node.args;
        if (target.op === "id") {
          if (index.op === "value" && typeof index.args === "string") add(target.args, bound, index.args);
          else {
            add(target.args, bound);
            stack.push([index, bound]);
          }
        } else {
          stack.push([target, bound], [index, bound]);
        }
        break;
      }
      case "call":
        for (const arg of node.args[1]) stack.push([arg, bound]);
        break;
      case "rcall": {
        const [name, receiver, args] = node.args;
        const first = args[0];
        if (COMPREHENSION_MACROS.has(name) && first?.op === "id") {
          stack.push([receiver, bound]);
          const inner = withVar(bound, first.args);
          for (const arg of args.slice(1)) stack.push([arg, inner]);
        } else if (name === "bind" && receiver.op === "id" && receiver.args === "cel" && first?.op === "id") {
          const [, init, body] = args;
          if (init) stack.push([init, bound]);
          if (body) stack.push([body, withVar(bound, first.args)]);
        } else {
          stack.push([receiver, bound]);
          for (const arg of args) stack.push([arg, bound]);
        }
        break;
      }
      case "list":
        for (const item of node.args) stack.push([item, bound]);
        break;
      case "map":
        for (const [k, v] of node.args) stack.push([k, bound], [v, bound]);
        break;
      case "!_":
      case "-_":
        stack.push([node.args, bound]);
        break;
      default: {
        // Binary operators, `&&`, `||` and the ternary all carry an array of operands.
        const operands: readonly ASTNode[] = node.args;
        for (const operand of operands) stack.push([operand, bound]);
      }
    }
  }
  return out;
}

/** Parses a CEL expression and lists the variables (node ids) and first fields it uses. */
export function parseExpression(src: string): ParsedExpression {
  if (typeof src !== "string" || src.trim() === "") {
    return { ok: false, error: "The expression is empty.", identifiers: [] };
  }
  try {
    const parsed = parseCached(src);
    return { ok: true, identifiers: collectIdentifiers(parsed.ast) };
  } catch (err) {
    const offset = errorOffset(err);
    return offset === undefined
      ? { ok: false, error: errorMessage(err), identifiers: [] }
      : { ok: false, error: errorMessage(err), errorOffset: offset, identifiers: [] };
  }
}

export type EvaluationResult = { ok: true; value: unknown } | { ok: false; error: string };

/** Converts CEL results back to JSON-friendly JS values (CEL ints are bigint). */
function toPlain(value: unknown): unknown {
  if (typeof value === "bigint") {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (Array.isArray(value)) return value.map(toPlain);
  if (value instanceof Map) return Object.fromEntries([...value.entries()].map(([k, v]) => [String(k), toPlain(v)]));
  return value;
}

/**
 * Evaluates a CEL expression against node outputs (`scope[nodeId] = outputs`). Never throws:
 * parse and evaluation errors (unknown variable, missing key, type mismatch) come back as `error`.
 */
export function evaluateExpression(src: string, scope: Readonly<Record<string, unknown>>): EvaluationResult {
  try {
    const program = parseCached(src);
    const value: unknown = program(scope);
    if (value instanceof Promise) return { ok: false, error: "Asynchronous expressions are not supported." };
    return { ok: true, value: toPlain(value) };
  } catch (err) {
    return { ok: false, error: errorMessage(err) };
  }
}

/** Evaluates a condition node's expression; the result must be a boolean. */
export function evaluateCondition(
  src: string,
  scope: Readonly<Record<string, unknown>>,
): { ok: true; value: boolean } | { ok: false; error: string } {
  const result = evaluateExpression(src, scope);
  if (!result.ok) return result;
  if (typeof result.value !== "boolean") {
    return { ok: false, error: `The condition must evaluate to a boolean, got ${typeof result.value}.` };
  }
  return { ok: true, value: result.value };
}
