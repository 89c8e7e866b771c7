/** Public types of the code sandbox (re-exported by index.ts; kept apart so client.ts can use them too). */

export type SandboxRunInput = {
  code: string;
  /** JSON-serialisable; the snippet sees it as `inputs` (undefined becomes `{}`). */
  inputs: unknown;
  /** Milliseconds, clamped to 100..30000; default 5000. */
  timeoutMs?: number;
  signal?: AbortSignal;
};

export type SandboxRunOutput = {
  result: unknown;
  stdout: string;
  stderr: string;
  /** Time the snippet took inside its worker (compile + run + serialising `result`), without queueing. */
  durationMs: number;
};

export type SandboxErrorCode =
  | "TIMEOUT"
  | "MEMORY"
  | "PYTHON_ERROR"
  | "SYNTAX_ERROR"
  | "RESULT_NOT_JSON"
  | "RESULT_MISSING"
  | "OUTPUT_TOO_LARGE"
  | "BUSY"
  | "ABORTED"
  | "SANDBOX_UNAVAILABLE";

export class SandboxError extends Error {
  readonly code: SandboxErrorCode;
  /** PYTHON_ERROR: the traceback, limited to the snippet's own frames. */
  declare pythonTraceback?: string;
  /** PYTHON_ERROR / SYNTAX_ERROR: 1-based line in the snippet. */
  declare line?: number;
  /** SYNTAX_ERROR: 1-based column. */
  declare column?: number;
  /** What the snippet printed before it failed (when it got that far). */
  declare stdout?: string;
  declare stderr?: string;

  constructor(
    code: SandboxErrorCode,
    message: string,
    extra: { pythonTraceback?: string; line?: number; column?: number; stdout?: string; stderr?: string } = {},
  ) {
    super(message);
    this.name = "SandboxError";
    this.code = code;
    if (extra.pythonTraceback !== undefined) this.pythonTraceback = extra.pythonTraceback;
    if (extra.line !== undefined) this.line = extra.line;
    if (extra.column !== undefined) this.column = extra.column;
    if (extra.stdout !== undefined) this.stdout = extra.stdout;
    if (extra.stderr !== undefined) this.stderr = extra.stderr;
  }
}

export type SyntaxProblem = { line: number; column: number; message: string };

export interface CodeSandbox {
  run(input: SandboxRunInput): Promise<SandboxRunOutput>;
  /** Compiles without running anything; [] when the code is valid. Python reports the first error only. */
  checkSyntax(code: string): Promise<SyntaxProblem[]>;
  /** Starts the host and its workers now instead of on the first call; resolves when they are ready. */
  warmUp(): Promise<void>;
  /** Stops the host process; a later call starts a new one. */
  close(): Promise<void>;
  stats(): { workers: number; busy: number; queued: number; restarts: number };
}
