/**
 * The Next.js-side client of the sandbox host process (host.mjs). Spawns it with Node's permission model,
 * exchanges JSON messages over IPC, restarts it when it dies and turns its replies into SandboxError codes.
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { defaultSnapshotCacheDir, makeSnapshotFile, type SnapshotCache, snapshotCache } from "./snapshot-cache";
import {
  SandboxError,
  type CodeSandbox,
  type SandboxErrorCode,
  type SandboxRunInput,
  type SandboxRunOutput,
  type SyntaxProblem,
} from "./types";

export type SandboxOptions = {
  /** Warm Pyodide workers in the pool (1..16). Default: env CODE_SANDBOX_WORKERS, else 2. */
  workers?: number;
  /** Wasm memory cap per worker in MiB (64..2048). Default 256. */
  memoryCapMb?: number;
  /** Calls waiting for a worker before BUSY (0..10000). Default 100. */
  queueMax?: number;
  /** Longest a call waits for a worker before BUSY, ms. Default 30000. */
  queueWaitMs?: number;
  /** After the deadline's interrupt, how long a worker gets before it is terminated, ms. Default 300. */
  killGraceMs?: number;
  /** How long a worker may take to roll its state back after a run before it is replaced, ms (500..60000). Default 2000. */
  cleanupMs?: number;
  /** Captured stdout and stderr, characters each. Default 65536. */
  outputCapChars?: number;
  /** `result` as JSON, UTF-8 bytes. Default 1 MiB. */
  resultCapBytes?: number;
  /** Bytes one run may write under /tmp, MiB. Default 32. */
  tmpWriteCapMb?: number;
  /** Start workers from a Pyodide memory snapshot (fast) instead of cold. Default true. */
  useSnapshot?: boolean;
  /**
   * Where the snapshot is kept between hosts (snapshot-cache.ts); null: no cache, every host makes its own. Default:
   * env CODE_SANDBOX_CACHE_DIR, else a folder of this user in the OS's temporary folder.
   */
  snapshotCacheDir?: string | null;
  /** Where server/runtime/sandbox and node_modules/pyodide live. Default process.cwd(). */
  appRoot?: string;
};

export const SANDBOX_DEFAULTS = {
  workers: 2,
  memoryCapMb: 256,
  queueMax: 100,
  queueWaitMs: 30_000,
  timeoutMs: 5_000,
  minTimeoutMs: 100,
  maxTimeoutMs: 30_000,
  outputCapChars: 64 * 1024,
  resultCapBytes: 1024 * 1024,
} as const;

/** Reads CODE_SANDBOX_WORKERS / CODE_SANDBOX_MEMORY_MB; invalid values fall back to the defaults. */
export function sandboxOptionsFromEnv(env: Record<string, string | undefined> = process.env): SandboxOptions {
  const int = (v: string | undefined) => (v && /^\d+$/.test(v.trim()) ? Number(v) : undefined);
  const options: SandboxOptions = {};
  const workers = int(env.CODE_SANDBOX_WORKERS);
  if (workers !== undefined && workers >= 1) options.workers = workers;
  const memory = int(env.CODE_SANDBOX_MEMORY_MB);
  if (memory !== undefined && memory >= 64) options.memoryCapMb = memory;
  return options;
}

export function clampTimeout(ms: number | undefined): number {
  if (ms === undefined || !Number.isFinite(ms)) return SANDBOX_DEFAULTS.timeoutMs;
  return Math.min(SANDBOX_DEFAULTS.maxTimeoutMs, Math.max(SANDBOX_DEFAULTS.minTimeoutMs, Math.trunc(ms)));
}

/**
 * Node flags of the host process: the second boundary after the in-worker hardening. The process may read only
 * Pyodide's files and the sandbox's own, may not write anywhere, spawn processes or load native addons, and
 * cannot turn strings into code (eval, Function, in every worker too). Node 20's permission model does not cover
 * the network; the workers refuse sockets themselves.
 */
export function hostExecArgv(sandboxDir: string, pyodideDir: string, readableFiles: string[] = []): string[] {
  // Node 20 only knows --experimental-permission; Node 22.13+/23.5+ call it --permission.
  const permission = process.allowedNodeEnvironmentFlags.has("--permission")
    ? "--permission"
    : "--experimental-permission";
  return [
    permission,
    `--allow-fs-read=${path.join(pyodideDir, "*")}`,
    `--allow-fs-read=${path.join(sandboxDir, "*")}`,
    ...readableFiles.map((f) => `--allow-fs-read=${f}`),
    "--allow-worker",
    "--disallow-code-generation-from-strings",
    "--no-warnings",
  ];
}

type WireError = {
  code: SandboxErrorCode;
  message: string;
  pythonTraceback?: string;
  line?: number;
  column?: number;
  stdout?: string;
  stderr?: string;
};
type HostReply =
  | { type: "result"; id: string; ok: true; value: unknown }
  | { type: "result"; id: string; ok: false; error: WireError };
type HostStats = { type: "stats"; workers: number; busy: number; queued: number; restarts: number };
type HostMessage = HostReply | HostStats | { type: "hello"; pid: number } | { type: "snapshot-cache-rejected" };
type RunValue = { resultJson: string; stdout: string; stderr: string; durationMs: number };
/** What warmUp() learned about start-up, for the benchmark. */
export type StartupInfo = {
  snapshotMs: number | null;
  /** where the workers' snapshot came from: the on-disk cache, made by this host, or none (cold starts) */
  snapshotSource: "cache" | "made" | null;
  firstReadyMs: number | null;
  workerStartMs: number[];
  workers: number;
};

type Pending = { resolve: (v: unknown) => void; reject: (e: unknown) => void };

const ERROR_CODES = new Set<SandboxErrorCode>([
  "TIMEOUT",
  "MEMORY",
  "PYTHON_ERROR",
  "SYNTAX_ERROR",
  "RESULT_NOT_JSON",
  "RESULT_MISSING",
  "OUTPUT_TOO_LARGE",
  "BUSY",
  "ABORTED",
  "SANDBOX_UNAVAILABLE",
]);

function toSandboxError(e: WireError): SandboxError {
  const code = ERROR_CODES.has(e.code) ? e.code : "SANDBOX_UNAVAILABLE";
  return new SandboxError(code, e.message, e);
}

export class HostSandbox implements CodeSandbox {
  private child: ChildProcess | null = null;
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;
  private hostStats = { workers: 0, busy: 0, queued: 0, restarts: 0 };
  /** Worker restarts reported by earlier host processes, plus host restarts themselves. */
  private restartsBefore = 0;
  private hostStarts = 0;
  private consecutiveCrashes = 0;
  private notBefore = 0;
  private closing: Promise<void> | null = null;
  private readonly options: SandboxOptions;
  startupInfo: StartupInfo | null = null;
  /** the snapshot cache of the running host (snapshot-cache.ts), with the folders its snapshot is made from */
  private cache: (SnapshotCache & { sandboxDir: string; pyodideDir: string }) | null = null;

  constructor(options: SandboxOptions = {}) {
    this.options = options;
  }

  async run(input: SandboxRunInput): Promise<SandboxRunOutput> {
    const { signal } = input;
    if (signal?.aborted) throw new SandboxError("ABORTED", "the run was aborted");
    let inputsJson: string | undefined;
    try {
      inputsJson = JSON.stringify(input.inputs ?? {});
    } catch (e) {
      throw new TypeError(`sandbox inputs must be JSON-serialisable: ${e instanceof Error ? e.message : String(e)}`);
    }
    const value = (await this.request(
      {
        type: "run",
        code: String(input.code ?? ""),
        inputsJson: inputsJson ?? "null",
        timeoutMs: clampTimeout(input.timeoutMs),
      },
      signal,
    )) as RunValue;
    return {
      result: JSON.parse(value.resultJson) as unknown,
      stdout: value.stdout,
      stderr: value.stderr,
      durationMs: value.durationMs,
    };
  }

  async checkSyntax(code: string): Promise<SyntaxProblem[]> {
    return (await this.request({
      type: "check",
      code: String(code ?? ""),
      timeoutMs: SANDBOX_DEFAULTS.timeoutMs,
    })) as SyntaxProblem[];
  }

  async warmUp(): Promise<void> {
    this.startupInfo = (await this.request({ type: "warm" })) as StartupInfo;
  }

  /** The host process id while one runs (tests use it to check for child processes and crash recovery). */
  get hostPid(): number | undefined {
    return this.child?.pid;
  }

  stats(): { workers: number; busy: number; queued: number; restarts: number } {
    return { ...this.hostStats, restarts: this.restartsBefore + this.hostStats.restarts };
  }

  close(): Promise<void> {
    const child = this.child;
    if (!child) return this.closing ?? Promise.resolve();
    this.closing = new Promise<void>((resolve) => {
      const kill = setTimeout(() => {
        child.kill("SIGKILL");
        resolve();
      }, 2_000);
      child.once("exit", () => {
        clearTimeout(kill);
        resolve();
      });
      try {
        child.send({ type: "shutdown" });
      } catch {
        child.kill("SIGKILL");
      }
    }).finally(() => {
      this.closing = null;
    });
    this.detach(child, "the code sandbox was closed", false);
    return this.closing;
  }

  // -------------------------------------------------------------------------------------------------------

  private request(msg: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = this.ensureHost();
      } catch (e) {
        reject(e);
        return;
      }
      const id = String(this.nextId++);
      const onAbort = () => {
        if (!this.pending.delete(id)) return;
        this.refIdle();
        // Reject now; the host interrupts the worker (or drops the queued call) in the background.
        this.trySend(child, { type: "abort", id });
        reject(new SandboxError("ABORTED", "the run was aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        resolve: (v) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(v);
        },
        reject: (e) => {
          signal?.removeEventListener("abort", onAbort);
          reject(e);
        },
      });
      this.refIdle();
      if (!this.trySend(child, { ...msg, id })) {
        this.pending.delete(id);
        this.refIdle();
        reject(new SandboxError("SANDBOX_UNAVAILABLE", "the code sandbox host is not reachable"));
      }
    });
  }

  private trySend(child: ChildProcess, msg: Record<string, unknown>): boolean {
    try {
      return child.connected && child.send(msg);
    } catch {
      return false;
    }
  }

  private ensureHost(): ChildProcess {
    if (this.child) return this.child;
    if (Date.now() < this.notBefore) {
      throw new SandboxError("SANDBOX_UNAVAILABLE", "the code sandbox host keeps crashing; retrying shortly");
    }
    const root = this.options.appRoot ?? process.cwd();
    const real = (p: string) => {
      try {
        return fs.realpathSync(p);
      } catch {
        throw new SandboxError("SANDBOX_UNAVAILABLE", `code sandbox file missing: ${p}`);
      }
    };
    const sandboxDir = real(path.join(root, "server/runtime/sandbox"));
    const pyodideDir = real(path.join(root, "node_modules/pyodide"));
    const hostOptions = {
      workers: this.options.workers ?? SANDBOX_DEFAULTS.workers,
      memoryCapMb: this.options.memoryCapMb ?? SANDBOX_DEFAULTS.memoryCapMb,
      queueMax: this.options.queueMax ?? SANDBOX_DEFAULTS.queueMax,
      queueWaitMs: this.options.queueWaitMs ?? SANDBOX_DEFAULTS.queueWaitMs,
      killGraceMs: this.options.killGraceMs,
      cleanupMs: this.options.cleanupMs,
      outputCapChars: this.options.outputCapChars ?? SANDBOX_DEFAULTS.outputCapChars,
      resultCapBytes: this.options.resultCapBytes ?? SANDBOX_DEFAULTS.resultCapBytes,
      tmpWriteCapMb: this.options.tmpWriteCapMb,
      useSnapshot: this.options.useSnapshot ?? true,
      pyodideDir,
      snapshotFile: undefined as string | undefined,
    };
    // the snapshot an earlier host left (read-only for this one); without one this host makes its own, and a maker
    // process writes one for the next host meanwhile
    const cacheDir =
      this.options.snapshotCacheDir === undefined ? defaultSnapshotCacheDir() : this.options.snapshotCacheDir;
    const cache = hostOptions.useSnapshot && cacheDir ? snapshotCache(sandboxDir, pyodideDir, cacheDir) : null;
    this.cache = cache && { ...cache, sandboxDir, pyodideDir };
    if (cache && fs.existsSync(cache.file)) hostOptions.snapshotFile = cache.file;
    else if (cache) void makeSnapshotFile(cache, sandboxDir, pyodideDir, hostExecArgv(sandboxDir, pyodideDir));
    const execArgv = hostExecArgv(sandboxDir, pyodideDir, hostOptions.snapshotFile ? [hostOptions.snapshotFile] : []);
    // Empty environment: no secret of the app is there to be read.
    const child = fork(path.join(/*turbopackIgnore: true*/ sandboxDir, "host.mjs"), [JSON.stringify(hostOptions)], {
      execArgv,
      execPath: process.execPath,
      env: {} as NodeJS.ProcessEnv,
      cwd: sandboxDir,
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "json",
    });
    this.hostStarts++;
    if (this.hostStarts > 1) this.restartsBefore++;
    this.child = child;
    this.hostStats = { workers: 0, busy: 0, queued: 0, restarts: 0 };
    child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(`[code-sandbox] ${chunk.toString()}`));
    // Log forwarding alone must not keep the parent alive (see refIdle).
    (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
    child.on("message", (m: HostMessage) => this.onMessage(m));
    child.on("error", (e) => this.onExit(child, `the code sandbox host failed: ${e.message}`));
    child.on("exit", (code, sig) => this.onExit(child, `the code sandbox host exited (${sig ?? `code ${code}`})`));
    this.refIdle();
    return child;
  }

  private onMessage(m: HostMessage): void {
    if (m.type === "snapshot-cache-rejected") {
      // a damaged cache file would otherwise make every later host make its own snapshot: a new one replaces it
      const cache = this.cache;
      if (cache) {
        fs.rmSync(cache.file, { force: true });
        void makeSnapshotFile(
          cache,
          cache.sandboxDir,
          cache.pyodideDir,
          hostExecArgv(cache.sandboxDir, cache.pyodideDir),
        );
      }
      return;
    }
    if (m.type === "stats") {
      this.hostStats = { workers: m.workers, busy: m.busy, queued: m.queued, restarts: m.restarts };
      return;
    }
    if (m.type !== "result") return;
    const p = this.pending.get(m.id);
    if (!p) return; // aborted meanwhile
    this.pending.delete(m.id);
    this.refIdle();
    if (m.ok) {
      this.consecutiveCrashes = 0;
      p.resolve(m.value);
    } else {
      p.reject(toSandboxError(m.error));
    }
  }

  private onExit(child: ChildProcess, reason: string): void {
    if (this.child !== child) return;
    this.consecutiveCrashes++;
    // Back off after repeated crashes so a broken install does not fork a host per call.
    if (this.consecutiveCrashes > 1)
      this.notBefore = Date.now() + Math.min(30_000, 500 * 2 ** (this.consecutiveCrashes - 2));
    this.detach(child, reason, true);
  }

  private detach(child: ChildProcess, reason: string, crashed: boolean): void {
    if (this.child !== child) return;
    this.child = null;
    this.restartsBefore += this.hostStats.restarts;
    this.hostStats = { workers: 0, busy: 0, queued: 0, restarts: 0 };
    if (!crashed) this.hostStarts = 0;
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(new SandboxError("SANDBOX_UNAVAILABLE", reason));
  }

  /** The host must not keep a CLI or test process alive while nothing is pending. */
  private refIdle(): void {
    const child = this.child;
    if (!child) return;
    const channel = child.channel as { ref?: () => void; unref?: () => void } | null | undefined;
    if (this.pending.size > 0) {
      child.ref();
      channel?.ref?.();
    } else {
      child.unref();
      channel?.unref?.();
    }
  }
}
