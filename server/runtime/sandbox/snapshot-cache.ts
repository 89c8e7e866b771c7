/**
 * The Pyodide memory snapshot a sandbox host starts its workers from, kept on disk so that the next host (a restart,
 * another server process, a test's sandbox) reads it in about 0.1 s instead of making it again: making one is
 * Pyodide's cold load plus the runner's set-up, 5-7 CPU seconds of the host's 6-7 on this project's 2-core machines.
 *
 * - Where: `CODE_SANDBOX_CACHE_DIR` (`off`: no cache), else `<os temp>/flowbench-sandbox-<uid>`. The directory is made 0700 and used
 *   only while it is a directory of this user that no one else may write; otherwise there is no cache.
 * - Which file: named after a hash of everything the snapshot is made from (Node's version and architecture,
 *   Pyodide's package, worker.mjs, runner.py), so a change to any of them reads no stale snapshot.
 * - Who writes it: a one-shot maker process (host.mjs with `makeSnapshotTo`) that may write only that directory and
 *   runs no snippet; it writes a temporary file, which this module renames into place. A host may read only the one file
 *   (`--allow-fs-read`) and checks the SHA-256 the file starts with before it uses it.
 * - One maker per machine at a time: a lock file made with O_EXCL; a lock older than two minutes is stale.
 */
import { createHash } from "node:crypto";
import { fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const STALE_LOCK_MS = 120_000;

export type SnapshotCache = { dir: string; file: string };

/** The directory, or null when it cannot be made or is not safe to use (another user's, or writable by others). */
function cacheDir(dir: string): string | null {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(dir);
    const uid = process.getuid?.();
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) return null;
    return fs.realpathSync(dir);
  } catch {
    return null;
  }
}

const keys = new Map<string, string>();
/** The hash of what a snapshot is made from (computed once per process and folder pair). */
function snapshotKey(sandboxDir: string, pyodideDir: string): string {
  const at = `${sandboxDir}\0${pyodideDir}`;
  let key = keys.get(at);
  if (!key) {
    const h = createHash("sha256").update(`${process.version} ${process.arch}\n`);
    h.update(fs.readFileSync(path.join(/*turbopackIgnore: true*/ pyodideDir, "package.json")));
    h.update(String(fs.statSync(path.join(/*turbopackIgnore: true*/ pyodideDir, "pyodide.asm.wasm")).size));
    for (const f of ["worker.mjs", "runner.py"])
      h.update(fs.readFileSync(path.join(/*turbopackIgnore: true*/ sandboxDir, f)));
    key = h.digest("hex").slice(0, 32);
    keys.set(at, key);
  }
  return key;
}

/** Where this install's snapshot lives, or null when there is no usable cache directory. */
export function snapshotCache(sandboxDir: string, pyodideDir: string, dir: string): SnapshotCache | null {
  const real = cacheDir(dir);
  if (!real) return null;
  try {
    return { dir: real, file: path.join(real, `pyodide-${snapshotKey(sandboxDir, pyodideDir)}.snapshot`) };
  } catch {
    return null;
  }
}

/** The default folder: `CODE_SANDBOX_CACHE_DIR` (`off`: no cache), else one per user in the OS's temporary folder. */
export function defaultSnapshotCacheDir(env: Record<string, string | undefined> = process.env): string | null {
  const set = env.CODE_SANDBOX_CACHE_DIR?.trim();
  if (set === "off") return null;
  return set || path.join(os.tmpdir(), `flowbench-sandbox-${process.getuid?.() ?? 0}`);
}

/**
 * Makes the cache's snapshot file in a one-shot maker process unless it exists or another maker holds the lock.
 * Resolves true when the file is there afterwards. Never rejects: without a cache, hosts make their own snapshots.
 */
export async function makeSnapshotFile(
  cache: SnapshotCache,
  sandboxDir: string,
  pyodideDir: string,
  execArgv: string[],
): Promise<boolean> {
  if (fs.existsSync(cache.file)) return true;
  const lock = `${cache.file}.lock`;
  try {
    fs.writeFileSync(lock, String(process.pid), { flag: "wx" });
  } catch {
    try {
      if (Date.now() - fs.statSync(lock).mtimeMs < STALE_LOCK_MS) return false; // another maker is at it
      fs.rmSync(lock, { force: true });
      fs.writeFileSync(lock, String(process.pid), { flag: "wx" });
    } catch {
      return false;
    }
  }
  const tmp = `${cache.file}.${process.pid}-${Date.now()}.tmp`;
  try {
    const code = await new Promise<number | null>((resolve) => {
      const child = fork(
        path.join(/*turbopackIgnore: true*/ sandboxDir, "host.mjs"),
        [JSON.stringify({ workers: 1, pyodideDir, makeSnapshotTo: tmp })],
        {
          execArgv: [...execArgv, `--allow-fs-write=${path.join(cache.dir, "*")}`],
          execPath: process.execPath,
          env: {} as NodeJS.ProcessEnv,
          cwd: sandboxDir,
          stdio: ["ignore", "ignore", "pipe", "ipc"],
          serialization: "json",
        },
      );
      child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(`[code-sandbox] ${chunk.toString()}`));
      // the maker must not keep a process that is otherwise done alive (a test's, a script's)
      child.unref();
      child.channel?.unref();
      (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
      child.on("error", () => resolve(null));
      child.on("exit", (c) => resolve(c));
    });
    if (code === 0) fs.renameSync(tmp, cache.file);
    return fs.existsSync(cache.file);
  } catch {
    return false;
  } finally {
    fs.rmSync(tmp, { force: true });
    fs.rmSync(lock, { force: true });
  }
}
