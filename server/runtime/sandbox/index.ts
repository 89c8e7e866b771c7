/**
 * The Python sandbox behind the workflow `code` node (see README.md in this folder).
 *
 * A snippet is Python source that reads `inputs` (a dict parsed from the JSON the caller passes, e.g.
 * `{"start": {"query": "..."}, "http_1": {"result": {...}}}`) and assigns its output to a variable named
 * `result`, which must be JSON-serialisable. print() output comes back as `stdout`/`stderr`.
 *
 *     const sb = getSandbox();
 *     const { result } = await sb.run({ code: 'result = inputs["a"] + 1', inputs: { a: 1 } }); // 2
 */
import { HostSandbox, sandboxOptionsFromEnv, type SandboxOptions } from "./client";
import type { CodeSandbox } from "./types";

export {
  SandboxError,
  type CodeSandbox,
  type SandboxErrorCode,
  type SandboxRunInput,
  type SandboxRunOutput,
  type SyntaxProblem,
} from "./types";

const SINGLETON = Symbol.for("flowbench.codeSandbox");

/** The process-wide sandbox. Kept on globalThis so `next dev` module reloads reuse the running host. */
export function getSandbox(): CodeSandbox {
  const g = globalThis as typeof globalThis & { [SINGLETON]?: CodeSandbox };
  g[SINGLETON] ??= new HostSandbox(sandboxOptionsFromEnv());
  return g[SINGLETON];
}

/** The process-wide sandbox's pool figures if it has been started (GET /api/metrics), without starting it. */
export function sandboxStats(): { workers: number; busy: number; queued: number; restarts: number } | null {
  const g = globalThis as typeof globalThis & { [SINGLETON]?: CodeSandbox };
  // not instanceof: the route's bundle and start-up's may each hold a copy of the class
  const box = g[SINGLETON] as Partial<Pick<HostSandbox, "stats">> | undefined;
  return typeof box?.stats === "function" ? box.stats() : null;
}

/** A separate sandbox with its own host process (tests, benchmarks). Close it when done. */
export function createSandbox(options: SandboxOptions = {}): HostSandbox {
  return new HostSandbox(options);
}

export type { SandboxOptions };
export { SANDBOX_DEFAULTS, clampTimeout } from "./client";
export { HostSandbox };
