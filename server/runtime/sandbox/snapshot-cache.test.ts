import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSandbox, type HostSandbox } from "./index";
import { defaultSnapshotCacheDir, snapshotCache } from "./snapshot-cache";

const sandboxDir = fs.realpathSync(path.join(process.cwd(), "server/runtime/sandbox"));
const pyodideDir = fs.realpathSync(path.join(process.cwd(), "node_modules/pyodide"));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-snapshot-cache-"));
const opened: HostSandbox[] = [];
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

function sandboxOn(dir: string) {
  const sb = createSandbox({ workers: 1, snapshotCacheDir: dir });
  opened.push(sb);
  return sb;
}

async function until(check: () => boolean, what: string, ms = 90_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("the sandbox's snapshot cache", () => {
  it("the first host makes its snapshot and a maker leaves one on disk; the next host starts from it and runs snippets with fresh state each time", async () => {
    const dir = path.join(tmp, "shared");
    const first = sandboxOn(dir);
    await first.warmUp();
    expect(first.startupInfo?.snapshotSource).toBe("made");
    const cache = snapshotCache(sandboxDir, pyodideDir, dir)!;
    await until(() => fs.existsSync(cache.file), "the maker's snapshot file");
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(dir)).toEqual([path.basename(cache.file)]); // no lock or temporary file left

    const second = sandboxOn(dir);
    await second.warmUp();
    expect(second.startupInfo?.snapshotSource).toBe("cache");
    const set = await second.run({ code: "import json\nleft = 41\nresult = inputs['a'] + 1", inputs: { a: 1 } });
    expect(set.result).toBe(2);
    // the state a run leaves is rolled back as with a snapshot made in the host itself
    const next = await second.run({ code: "result = 'left' in globals()", inputs: {} });
    expect(next.result).toBe(false);
    // hardened as a host's own snapshot is: the JavaScript side stays out of reach
    await expect(second.run({ code: "import js\nresult = str(js.process.pid)", inputs: {} })).rejects.toMatchObject({
      code: "PYTHON_ERROR",
      message: expect.stringMatching(/ImportError|ModuleNotFoundError/),
    });
    await expect(second.checkSyntax("def f(:\n  pass")).resolves.toEqual([expect.objectContaining({ line: 1 })]);
  });

  it("a file that does not match its hash is not used: the host makes its own snapshot and works, and the file is made again", async () => {
    const dir = path.join(tmp, "shared");
    const cache = snapshotCache(sandboxDir, pyodideDir, dir)!;
    const bytes = fs.readFileSync(cache.file);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 100) ^ 0xff, bytes.length - 100);
    fs.writeFileSync(cache.file, bytes);
    const sb = sandboxOn(dir);
    await sb.warmUp();
    expect(sb.startupInfo?.snapshotSource).toBe("made");
    expect((await sb.run({ code: "result = sum(inputs['xs'])", inputs: { xs: [1, 2, 3] } })).result).toBe(6);
    // and the damaged file is replaced, so the next host starts from the cache again
    await until(() => fs.existsSync(cache.file) && !fs.readFileSync(cache.file).equals(bytes), "a new snapshot file");
    const next = sandboxOn(dir);
    await next.warmUp();
    expect(next.startupInfo?.snapshotSource).toBe("cache");
  });

  it("a folder others may write, or another user's, is no cache; `off` turns it off", () => {
    const open = path.join(tmp, "open");
    fs.mkdirSync(open, { mode: 0o777 });
    fs.chmodSync(open, 0o777);
    expect(snapshotCache(sandboxDir, pyodideDir, open)).toBeNull();
    if (process.getuid?.() === 0) {
      const theirs = path.join(tmp, "theirs");
      fs.mkdirSync(theirs, { mode: 0o700 });
      fs.chownSync(theirs, 65534, 65534);
      expect(snapshotCache(sandboxDir, pyodideDir, theirs)).toBeNull();
    }
    expect(defaultSnapshotCacheDir({ CODE_SANDBOX_CACHE_DIR: "off" })).toBeNull();
    expect(defaultSnapshotCacheDir({ CODE_SANDBOX_CACHE_DIR: "/var/cache/fb" })).toBe("/var/cache/fb");
    expect(defaultSnapshotCacheDir({})).toBe(path.join(os.tmpdir(), `flowbench-sandbox-${process.getuid?.() ?? 0}`));
  });

  it("the file is named after what the snapshot is made from: another runner.py reads another file", () => {
    const copy = path.join(tmp, "sandbox-copy");
    fs.mkdirSync(copy);
    for (const f of ["worker.mjs", "runner.py"]) fs.copyFileSync(path.join(sandboxDir, f), path.join(copy, f));
    const dir = path.join(tmp, "keyed");
    const same = snapshotCache(copy, pyodideDir, dir)!.file;
    expect(same).toBe(snapshotCache(sandboxDir, pyodideDir, dir)!.file);
    fs.appendFileSync(path.join(copy, "runner.py"), "\n# changed\n");
    const other = path.join(tmp, "sandbox-copy-2");
    fs.cpSync(copy, other, { recursive: true });
    expect(snapshotCache(other, pyodideDir, dir)!.file).not.toBe(same);
  });
});
