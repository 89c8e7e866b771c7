/**
 * Validation plus a Python syntax check of every code node. The workflow validator is pure and synchronous, so
 * this async wrapper lives in the runtime: it runs `validateWorkflowRequest`, then compiles each code node's
 * `code` in the sandbox (nothing is executed) and appends CODE_SYNTAX_ERROR at /workflow/nodes/<i>/config/code.
 * The sandbox stays optional: when it is unavailable or slow, one CODE_SYNTAX_UNCHECKED warning per code node
 * says so instead of failing the validation. Used by the validate endpoint and procedure, provisioning and the
 * test-run face.
 */
import { validateWorkflowRequest, type Finding, type ValidateOptions, type ValidationResult } from "../workflow";
import { errorMessage } from "./errors";

export type SyntaxChecker = (code: string) => Promise<Array<{ line: number; column: number; message: string }>>;

export type CodeValidateOptions = Omit<ValidateOptions, "pathPrefix"> & {
  /** Replaces the sandbox's checkSyntax (tests). */
  checkSyntax?: SyntaxChecker;
  /** How long to wait for the sandbox (its first start can take seconds). Default 20 s. */
  checkTimeoutMs?: number;
};

const DEFAULT_CHECK_TIMEOUT_MS = 20_000;

async function sandboxChecker(): Promise<SyntaxChecker> {
  const { getSandbox } = await import("./sandbox");
  const sandbox = getSandbox();
  return (code) => sandbox.checkSyntax(code);
}

function codeNodes(body: unknown): Array<{ index: number; id: string | undefined; code: string }> {
  const workflow = (body as { workflow?: { nodes?: unknown } } | null)?.workflow;
  const nodes = workflow && Array.isArray(workflow.nodes) ? (workflow.nodes as unknown[]) : [];
  const out: Array<{ index: number; id: string | undefined; code: string }> = [];
  nodes.forEach((n, index) => {
    if (typeof n !== "object" || n === null) return;
    const node = n as { id?: unknown; type?: unknown; config?: unknown };
    const code = (node.config as { code?: unknown } | undefined)?.code;
    if (node.type === "code" && typeof code === "string" && code.trim() !== "")
      out.push({ index, id: typeof node.id === "string" ? node.id : undefined, code });
  });
  return out;
}

/**
 * Results of earlier checks by source text: compiling is deterministic, and the canvas re-validates the same code
 * on every edit. Bounded (oldest out); failures to check are never cached.
 */
const checked = new Map<string, Awaited<ReturnType<SyntaxChecker>>>();
const MAX_CHECKED = 500;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Validates a request body `{ workflow }` like validateWorkflowRequest, plus the Python syntax of code nodes. */
export async function validateWorkflowWithCode(
  body: unknown,
  opts: CodeValidateOptions = {},
): Promise<ValidationResult> {
  const { checkSyntax, checkTimeoutMs = DEFAULT_CHECK_TIMEOUT_MS, ...validateOpts } = opts;
  const result = validateWorkflowRequest(body, validateOpts);
  const nodes = codeNodes(body);
  if (nodes.length === 0) return result;

  const errors: Finding[] = [...result.errors];
  const warnings: Finding[] = [...result.warnings];
  const where = (n: (typeof nodes)[number]) => ({
    path: `/workflow/nodes/${n.index}/config/code`,
    ...(n.id !== undefined ? { nodeId: n.id } : {}),
  });
  const name = (n: (typeof nodes)[number]) =>
    n.id !== undefined ? `Code node ${JSON.stringify(n.id)}` : `The code node at index ${n.index}`;
  let checker: SyntaxChecker | undefined = checkSyntax;
  let unavailable: string | undefined;
  if (!checker) {
    try {
      checker = await sandboxChecker();
    } catch (e) {
      unavailable = errorMessage(e);
    }
  }
  type Problems = Awaited<ReturnType<SyntaxChecker>>;
  type Outcome = { n: (typeof nodes)[number] } & ({ ok: true; problems: Problems } | { ok: false; error: string });
  // One check per distinct source text in this request; the injected checker (tests) bypasses the shared cache.
  const pending = new Map<string, Promise<Problems>>();
  const checkOnce = (run: SyntaxChecker, code: string): Promise<Problems> => {
    const known = checkSyntax ? undefined : checked.get(code);
    if (known) return Promise.resolve(known);
    let p = pending.get(code);
    if (!p) {
      p = withTimeout(run(code), checkTimeoutMs).then((problems) => {
        if (!checkSyntax) {
          if (checked.size >= MAX_CHECKED) checked.delete(checked.keys().next().value as string);
          checked.set(code, problems);
        }
        return problems;
      });
      pending.set(code, p);
    }
    return p;
  };
  const outcomes = await Promise.all(
    nodes.map(async (n): Promise<Outcome> => {
      if (!checker) return { n, ok: false, error: unavailable ?? "the sandbox is unavailable" };
      try {
        return { n, ok: true, problems: await checkOnce(checker, n.code) };
      } catch (e) {
        return { n, ok: false, error: errorMessage(e) };
      }
    }),
  );
  for (const o of outcomes) {
    if (!o.ok) {
      warnings.push({
        code: "CODE_SYNTAX_UNCHECKED",
        severity: "warning",
        message: `${name(o.n)} was not syntax-checked because the Python sandbox is unavailable (${o.error.replace(/\.$/, "")}).`,
        ...where(o.n),
      });
      continue;
    }
    const first = o.problems[0];
    if (first) {
      errors.push({
        code: "CODE_SYNTAX_ERROR",
        severity: "error",
        message: `${name(o.n)} has a Python syntax error at line ${first.line}, column ${first.column}: ${first.message.replace(/\.$/, "")}.`,
        ...where(o.n),
      });
    }
  }
  return { valid: errors.length === 0, errors, warnings };
}
