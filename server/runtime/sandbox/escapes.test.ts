/**
 * Every escape the research note (shared/notes/code-sandbox.md) found in a default Pyodide set-up, tried
 * against the hardened sandbox: each must end in a clean error with nothing done on the host (no marker file,
 * no child process, no connection). Also the host process' life cycle (dies with its parent, restarted after a
 * crash). One sandbox for the whole file.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hostExecArgv } from "./client";
import { createSandbox, SandboxError, type HostSandbox } from "./index";

let sb: HostSandbox;
let scratch: string;
let marker: string;
const repoRoot = process.cwd();

beforeAll(async () => {
  process.env.FLOWBENCH_SANDBOX_TEST_SECRET = "do-not-leak";
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-sandbox-escape-"));
  marker = path.join(scratch, "marker");
  sb = createSandbox({ workers: 2 });
  await sb.warmUp();
}, 120_000);

afterAll(async () => {
  await sb?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
  delete process.env.FLOWBENCH_SANDBOX_TEST_SECRET;
});

async function failure(code: string): Promise<SandboxError> {
  try {
    await sb.run({ code, inputs: {} });
  } catch (e) {
    expect(e).toBeInstanceOf(SandboxError);
    return e as SandboxError;
  }
  throw new Error(`expected the snippet to fail:\n${code}`);
}

/** Child processes of the host process (Linux /proc). */
function hostChildren(): string[] {
  const pid = sb.hostPid;
  if (!pid) return [];
  const tasks = fs.readdirSync(`/proc/${pid}/task`);
  return tasks.flatMap((t) => fs.readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").split(/\s+/).filter(Boolean));
}

function nothingHappened() {
  expect(fs.existsSync(marker)).toBe(false);
  expect(hostChildren()).toEqual([]);
}

const py = (s: string) => JSON.stringify(s); // a JS string literal is a valid Python string literal here

describe("reaching JavaScript", () => {
  it("`import js` fails, so js.process is out of reach", async () => {
    const e = await failure("import js\nresult = str(js.process.pid)");
    expect(e.code).toBe("PYTHON_ERROR");
    expect(e.message).toMatch(/ImportError|ModuleNotFoundError/);
    expect(
      (
        await sb.run({
          code: 'import sys\nresult = sorted(m for m in sys.modules if m == "js" or m.startswith("pyodide_js"))',
          inputs: {},
        })
      ).result,
    ).toEqual([]);
    nothingHappened();
  });

  it("pyodide.code.run_js fails", async () => {
    const js = `require("fs").writeFileSync(${py(marker)}, "x")`;
    const e = await failure(`import pyodide.code\npyodide.code.run_js(${py(js)})`);
    expect(e.code).toBe("PYTHON_ERROR");
    nothingHappened();
  });

  it("`import pyodide_js` fails", async () => {
    const e = await failure("import pyodide_js\nresult = str(pyodide_js.version)");
    expect(e.code).toBe("PYTHON_ERROR");
    expect((await failure("import pyodide_js._api")).code).toBe("PYTHON_ERROR");
  });

  it("to_js([]).constructor.constructor is no longer Function, so import('node:child_process') cannot be built", async () => {
    const js = `return import("node:child_process").then(cp => cp.execSync("touch ${marker}"))`;
    const e = await failure(`from pyodide.ffi import to_js\nF = to_js([]).constructor.constructor\nF(${py(js)})()`);
    expect(e.code).toBe("PYTHON_ERROR");
    expect(e.message).toMatch(/not callable/);
    // The other prototypes a JsProxy can reach lead nowhere either.
    const probe = [
      "from pyodide.ffi import to_js, create_proxy",
      "arr = to_js([])",
      "roads = [arr.constructor.constructor, to_js({}).constructor.constructor, create_proxy(len).constructor.constructor]",
      "result = [r is None for r in roads]",
    ].join("\n");
    expect((await sb.run({ code: probe, inputs: {} })).result).toEqual([true, true, true]);
    await new Promise((r) => setTimeout(r, 200));
    nothingHappened();
  });

  it("ctypes.CDLL(None).emscripten_run_script fails", async () => {
    const js = `require("fs").writeFileSync(${py(marker)}, "x")`;
    const e = await failure(`import ctypes\nctypes.CDLL(None).emscripten_run_script(${py(js)}.encode())`);
    expect(e.code).toBe("PYTHON_ERROR");
    expect(e.message).toMatch(/ImportError/);
    expect((await failure("import _ctypes")).code).toBe("PYTHON_ERROR");
    // importlib skips the audit hook's "import" event; the module is gone from CPython's builtin table too.
    const viaImportlib = await failure(`import importlib\nimportlib.import_module("_ctypes")`);
    expect(viaImportlib.message).toMatch(/No module named '_ctypes'/);
    nothingHappened();
  });

  it("mountNodeFS is unreachable and mounting fails", async () => {
    const e = await failure(
      `import pyodide_js\npyodide_js.mountNodeFS("/mnt", ${py(repoRoot)})\nresult = __import__("os").listdir("/mnt")`,
    );
    expect(e.code).toBe("PYTHON_ERROR");
    const listing = await sb.run({ code: 'import os\nresult = sorted(os.listdir("/"))', inputs: {} });
    expect(listing.result).toEqual(["dev", "home", "lib", "proc", "tmp"]);
  });

  it("a change to a JS intrinsic retires the worker, so later runs never see it", async () => {
    const restarts = sb.stats().restarts;
    await sb.run({
      code: "from pyodide.ffi import to_js\nto_js([]).constructor.prototype.planted = 1\nresult = 1",
      inputs: {},
    });
    for (let i = 0; i < 4; i++) {
      const out = await sb.run({
        code: 'from pyodide.ffi import to_js\nresult = repr(getattr(to_js([]), "planted", "absent"))',
        inputs: {},
      });
      expect(out.result).toBe("'absent'");
    }
    // The host retires the worker after it replied and reports its stats asynchronously: wait for the report.
    await vi.waitFor(() => expect(sb.stats().restarts).toBeGreaterThan(restarts), { timeout: 10_000, interval: 50 });
  });
});

describe("host files, processes and network", () => {
  it("cannot write outside /tmp", async () => {
    const target = path.join(repoRoot, "sandbox-escape-marker");
    const attempts = {
      home: 'open("/home/pyodide/x.txt", "w").write("x")',
      stdlib: 'open("/lib/python3.14/evil.py", "w").write("x")',
      mkdir: 'os.mkdir("/evil")',
      chmod: 'os.chmod("/home/pyodide", 0o777)',
      rename: 'os.rename("/lib/python314.zip", "/tmp/z.zip")',
      remove: 'os.remove("/lib/python314.zip")',
      hostPath: `open(${py(target)}, "w").write("x")`,
      hostMarker: `open(${py(marker)}, "w").write("x")`,
    };
    for (const [name, stmt] of Object.entries(attempts)) {
      const e = await failure(`import os\n${stmt}`);
      expect(e.code, name).toBe("PYTHON_ERROR");
      expect(e.message, name).toMatch(/PermissionError|FileNotFoundError|OSError/);
    }
    expect(fs.existsSync(target)).toBe(false);
    nothingHappened();
    expect(
      (
        await sb.run({
          code: 'open("/tmp/ok.txt", "w").write("fine")\nresult = open("/tmp/ok.txt").read()',
          inputs: {},
        })
      ).result,
    ).toBe("fine");
  });

  it("cannot read /etc/passwd or the repository's package.json", async () => {
    for (const file of ["/etc/passwd", path.join(repoRoot, "package.json"), "../../package.json"]) {
      const e = await failure(`result = open(${py(file)}).read()`);
      expect(e.code).toBe("PYTHON_ERROR");
      expect(e.message).toMatch(/FileNotFoundError/);
    }
  });

  it("cannot start processes", async () => {
    for (const stmt of [
      `import os\nos.system("touch ${marker}")`,
      `import subprocess\nsubprocess.run(["touch", ${py(marker)}])`,
      "import os\nos.fork()",
    ]) {
      expect((await failure(stmt)).code).toBe("PYTHON_ERROR");
    }
    nothingHappened();
  });

  it("cannot open a socket to 127.0.0.1", async () => {
    let connections = 0;
    const server = net.createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const tcp = await failure(
        `import socket\ns = socket.socket()\ns.settimeout(2)\ns.connect(("127.0.0.1", ${port}))\ns.sendall(b"hello")`,
      );
      expect(tcp.code).toBe("PYTHON_ERROR");
      expect(tcp.message).toMatch(/PermissionError|OSError/);
      expect((await failure(`import socket\nsocket.create_connection(("localhost", ${port}), timeout=2)`)).code).toBe(
        "PYTHON_ERROR",
      );
      expect(
        (
          await failure(
            `import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\ns.sendto(b"x", ("127.0.0.1", ${port}))`,
          )
        ).code,
      ).toBe("PYTHON_ERROR");
      expect((await failure(`import socket\ns = socket.socket()\ns.bind(("127.0.0.1", 0))\ns.listen()`)).code).toBe(
        "PYTHON_ERROR",
      );
      await new Promise((r) => setTimeout(r, 300));
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it("sees none of the app's environment", async () => {
    const out = await sb.run({ code: "import os\nresult = dict(os.environ)", inputs: {} });
    const values = Object.values(out.result as Record<string, string>).join("\n");
    expect(values).not.toContain("do-not-leak");
    expect(values).not.toContain(repoRoot);
  });

  it("refuses the gc walks that would find the runner's internals", async () => {
    const e = await failure("import gc\nresult = len(gc.get_objects())");
    expect(e.message).toMatch(/not allowed/);
  });

  it("cannot switch the audit hook off by rebinding builtins or replacing function code", async () => {
    const rebind = "import builtins\nbuiltins.len = lambda *a: 0\nbuiltins.type = lambda *a: int\nimport js";
    expect((await failure(rebind)).message).toMatch(/ImportError: import of 'js' is not allowed/);
    const recode = 'import sys\nsys.modules["_flowbench_runner"].check_syntax.__code__ = (lambda c: "{}").__code__';
    expect((await failure(recode)).message).toMatch(
      /PermissionError: changing the sandbox runner's __code__ is not allowed/,
    );
    // The snippet's own functions stay ordinary (namedtuple defaults set __new__.__defaults__).
    const own =
      'import collections\nP = collections.namedtuple("P", "x y", defaults=(0,))\ndef f(): return 1\nf.__code__ = (lambda: 2).__code__\nresult = [P(1).y, f()]';
    expect((await sb.run({ code: own, inputs: {} })).result).toEqual([0, 2]);
  });
});

describe("host process permissions (the boundary behind the worker hardening)", () => {
  it("a process with the host's flags cannot write, spawn, read outside its allow-list or compile strings", () => {
    const sandboxDir = fs.realpathSync(path.join(repoRoot, "server/runtime/sandbox"));
    const pyodideDir = fs.realpathSync(path.join(repoRoot, "node_modules/pyodide"));
    const probe = `
      const fs = require("node:fs");
      const out = {};
      const tryIt = (name, fn) => { try { fn(); out[name] = "ALLOWED"; } catch (e) { out[name] = e.code || e.name; } };
      tryIt("readPyodide", () => fs.readFileSync(${JSON.stringify(path.join(pyodideDir, "package.json"))}));
      tryIt("readSandbox", () => fs.readFileSync(${JSON.stringify(path.join(sandboxDir, "runner.py"))}));
      tryIt("readRepo", () => fs.readFileSync(${JSON.stringify(path.join(repoRoot, "package.json"))}));
      tryIt("readPasswd", () => fs.readFileSync("/etc/passwd"));
      tryIt("write", () => fs.writeFileSync(${JSON.stringify(marker)}, "x"));
      tryIt("spawn", () => require("node:child_process").execFileSync("true"));
      tryIt("eval", () => eval("1"));
      tryIt("Function", () => new Function("return 1")());
      console.log(JSON.stringify(out));`;
    const res = spawnSync(process.execPath, [...hostExecArgv(sandboxDir, pyodideDir), "-e", probe], {
      encoding: "utf8",
      env: {} as NodeJS.ProcessEnv,
    });
    expect(JSON.parse(res.stdout)).toEqual({
      readPyodide: "ALLOWED",
      readSandbox: "ALLOWED",
      readRepo: "ERR_ACCESS_DENIED",
      readPasswd: "ERR_ACCESS_DENIED",
      write: "ERR_ACCESS_DENIED",
      spawn: "ERR_ACCESS_DENIED",
      eval: "EvalError",
      Function: "EvalError",
    });
    nothingHappened();
  });
});

describe("host process life cycle", () => {
  it("the host exits when its parent dies", async () => {
    // A throwaway parent that forks the host the way client.ts does, prints its pid and waits.
    const hostPath = path.join(repoRoot, "server/runtime/sandbox/host.mjs");
    const parentSrc = `
      import { fork } from "node:child_process";
      const c = fork(${JSON.stringify(hostPath)}, ["{}"], { execArgv: ["--no-warnings"], stdio: ["ignore", "ignore", "ignore", "ipc"], env: {} });
      c.on("message", (m) => { if (m.type === "hello") console.log(c.pid); });
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ["--input-type=module", "-e", parentSrc], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const hostPid = await new Promise<number>((resolve, reject) => {
      parent.stdout?.on("data", (d: Buffer) => resolve(Number(d.toString().trim())));
      parent.on("exit", () => reject(new Error("parent exited early")));
    });
    expect(hostPid).toBeGreaterThan(0);
    parent.kill("SIGKILL");
    const alive = () => {
      try {
        process.kill(hostPid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const deadline = Date.now() + 5_000;
    while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
  });

  it("the client restarts the host after it crashes", async () => {
    const pid = sb.hostPid;
    expect(pid).toBeDefined();
    const restarts = sb.stats().restarts;
    const inFlight = sb.run({ code: "while True:\n    pass", inputs: {}, timeoutMs: 10_000 });
    await new Promise((r) => setTimeout(r, 100));
    process.kill(pid!, "SIGKILL");
    await expect(inFlight).rejects.toMatchObject({ code: "SANDBOX_UNAVAILABLE" });
    expect((await sb.run({ code: "result = 'back'", inputs: {} })).result).toBe("back");
    expect(sb.hostPid).not.toBe(pid);
    expect(sb.stats().restarts).toBeGreaterThan(restarts);
    expect(spawnSync("kill", ["-0", String(pid)]).status).not.toBe(0);
  }, 60_000);

  it("a call that comes before any worker has started waits for the cold start; once warm, the queue wait applies", async () => {
    // a queue wait far below a Pyodide start: the first call used to be BUSY while its worker was still starting
    const cold = createSandbox({ workers: 1, queueWaitMs: 200 });
    try {
      expect((await cold.run({ code: "result = 'first'", inputs: {} })).result).toBe("first");
      const loop = cold.run({ code: "while True:\n    pass", inputs: {}, timeoutMs: 3_000 }).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 100)); // the one worker is now busy
      await expect(cold.run({ code: "result = 2", inputs: {} })).rejects.toMatchObject({
        code: "BUSY",
        message: expect.stringContaining("stayed busy for 200 ms"),
      });
      expect(await loop).toMatchObject({ code: "TIMEOUT" });
    } finally {
      await cold.close();
    }
  }, 120_000);
});
