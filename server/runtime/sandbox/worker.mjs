// One Pyodide instance inside a worker_thread of the sandbox host process (host.mjs). Plain .mjs on purpose: it
// is started as-is by the host, never bundled. See README.md for the isolation layers and why each exists.
//
// Modes (workerData.mode):
//   "snapshot" - cold-load Pyodide, run the Python set-up, post a memory snapshot to the host, exit.
//   "pool"     - load from that snapshot (~0.2 s instead of ~2-8 s), harden, serve runs.
//   "cold"     - fallback when no snapshot could be made: cold-load + set-up, then serve like "pool".
import { parentPort, workerData } from "node:worker_threads";
import fs from "node:fs";
import os from "node:os";

const cfg = workerData;
const port = parentPort;
if (!port) throw new Error("worker.mjs must run in a worker_thread");

// Keep the few host objects this file needs before the globals are torn down (hardenGlobals below).
const perf = globalThis.performance;
const setImmediateFn = globalThis.setImmediate;
const activeResources = process.getActiveResourcesInfo?.bind(process);

// Node 20's permission model refuses process.binding(); Emscripten's NODEFS.staticInit (run at start-up even
// though we never mount NODEFS) reads process.binding("constants").fs. Answer that one call from the public
// constants, which hold the same O_* values.
{
  const original = process.binding;
  process.binding = function binding(name) {
    if (name === "constants") return { fs: fs.constants, os: os.constants };
    return original.call(process, name);
  };
}

// Memory cap: resourceLimits only bound the JS heap, wasm memory grows through Memory.prototype.grow (from
// emscripten_resize_heap). Refusing a grow past the cap makes malloc fail, which CPython turns into MemoryError.
{
  const cap = cfg.memoryCapBytes;
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function cappedGrow(deltaPages) {
    if (this.buffer.byteLength + deltaPages * 65536 > cap) throw new RangeError("code sandbox memory cap reached");
    return grow.call(this, deltaPages);
  };
}

// Pyodide frees a Python object when the JS PyProxy for it is garbage-collected, through a FinalizationRegistry
// whose callback runs whenever V8 gets to it. After a memory roll-back those pointers refer to the pristine
// image, not to the objects the proxies were made for: a late Py_DecRef would corrupt a later run (seen:
// "null function or function signature mismatch" fatal errors). Registrations are tagged with the memory
// generation; callbacks from an older generation are dropped (the roll-back already undid those references).
let memoryGeneration = 0;
{
  const Real = globalThis.FinalizationRegistry;
  globalThis.FinalizationRegistry = class FinalizationRegistry extends Real {
    constructor(cleanup) {
      super((held) => {
        if (held.generation === memoryGeneration) cleanup(held.value);
      });
    }
    register(target, held, token) {
      return super.register(target, { generation: memoryGeneration, value: held }, token);
    }
  };
}

const fail = (stage, e) => {
  port.postMessage({ type: "fatal", stage, message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
  process.exit(1);
};

// Module state. Declared before the start-up code below runs (it awaits at top level).
let py;
// Copy of the wasm memory taken right after set-up; every run is rolled back to it.
let pristine;
let tmpNode;
let tmpMode;
let tmpBytesWritten = 0;
let baseStreams;
let fdOut;
let fdErr;
let baseline;
let baselineResources;
let resets = 0;
let runSnippet;
let checkSyntax;
function unregisterJsModules() {
  for (const name of ["js", "pyodide_js"]) {
    try {
      py.unregisterJsModule(name);
    } catch {
      // not registered: nothing to do
    }
  }
}

// Compiled-in extension modules that hand out raw memory access (ctypes: arbitrary wasm calls and hiwire-table
// forging, i.e. a way back to JS objects; CPython's _test* modules: raw pointers) or are useless here. The
// `import` statement is also refused by the runner's audit hook, but importlib reaches builtins without that
// event, so the entries are removed from CPython's table of builtins itself: renaming "_ctypes" to "!ctypes" in
// the table makes every route (import, importlib, _imp.create_builtin) fail. finish_setup() verifies it.
const DISABLED_BUILTINS = [
  "_ctypes",
  "_testcapi",
  "_testinternalcapi",
  "_testlimitedcapi",
  "_testbuffer",
  "_testclinic",
  "_testclinic_limited",
  "_xxtestfuzz",
  "_remote_debugging",
  "_posixsubprocess",
];
function disableBuiltinModules() {
  const M = py._module;
  if (typeof M._PyImport_Inittab !== "number")
    throw new Error("PyImport_Inittab is not exported: cannot disable _ctypes");
  const base = M.HEAPU32[M._PyImport_Inittab >>> 2];
  // wasm32: struct _inittab { const char *name; PyObject *(*initfunc)(void); } terminated by a NULL name.
  for (let entry = base; ; entry += 8) {
    const namePtr = M.HEAPU32[entry >>> 2];
    if (!namePtr) break;
    if (DISABLED_BUILTINS.includes(M.UTF8ToString(namePtr))) M.HEAPU8[namePtr] = 0x21; // "!"
  }
}

function memory() {
  return py._module.HEAP8.buffer;
}

// ---- filesystem: read-only except /tmp, no mounts, bounded /tmp writes ------------------------------------
function hardenFilesystem() {
  const FS = py.FS;
  const E = py.ERRNO_CODES;
  FS.chdir("/tmp");
  tmpNode = FS.lookupPath("/tmp").node;
  tmpMode = tmpNode.mode;
  const inTmp = (node) => {
    for (let n = node; n; n = n.parent) {
      if (n === tmpNode) return true;
      if (n === n.parent) return false;
    }
    return false;
  };
  const writable = (node) => inTmp(node) || FS.isChrdev(node.mode); // /dev/null etc. stay usable
  const nodePermissions = FS.nodePermissions;
  FS.nodePermissions = (node, perms) => {
    if (perms.includes("w") && !writable(node)) return E.EACCES;
    return nodePermissions(node, perms);
  };
  // chmod/chown/truncate go through doSetAttr with no permission check of their own.
  const doSetAttr = FS.doSetAttr;
  FS.doSetAttr = (stream, node, attr) => {
    if (!writable(node)) throw new FS.ErrnoError(E.EPERM);
    if (attr.size !== undefined && attr.size > cfg.tmpWriteCapBytes) throw new FS.ErrnoError(E.ENOSPC);
    return doSetAttr(stream, node, attr);
  };
  const utime = FS.utime;
  FS.utime = (path, atime, mtime) => {
    if (!writable(FS.lookupPath(path, { follow: true }).node)) throw new FS.ErrnoError(E.EPERM);
    return utime(path, atime, mtime);
  };
  // /tmp lives in this worker's JS heap, not in the capped wasm memory: bound what one run may write.
  const write = FS.write;
  FS.write = (stream, buffer, offset, length, position, canOwn) => {
    if (FS.isFile(stream.node.mode)) {
      tmpBytesWritten += length;
      if (tmpBytesWritten > cfg.tmpWriteCapBytes) throw new FS.ErrnoError(E.ENOSPC);
    }
    return write(stream, buffer, offset, length, position, canOwn);
  };
  const refuse = () => {
    throw new FS.ErrnoError(E.EPERM);
  };
  FS.mount = refuse;
  FS.unmount = refuse;
  for (const key of ["mountNodeFS", "mountNativeFS", "useNodeSockFS"]) {
    if (key in py)
      py[key] = () => {
        throw new Error(`${key} is disabled in the code sandbox`);
      };
  }
  baseStreams = new Set(FS.streams.map((s, fd) => (s ? fd : -1)).filter((fd) => fd >= 0));
}

function resetFilesystem() {
  const FS = py.FS;
  // Streams a run left open (Python's fd table was just rolled back, these would leak).
  FS.streams.forEach((stream, fd) => {
    if (stream && !baseStreams.has(fd)) {
      try {
        FS.close(stream);
      } catch {
        FS.streams[fd] = null;
      }
    }
  });
  tmpNode.mode = tmpMode; // a run may chmod /tmp itself (it is writable); the wipe below needs to enter it
  const wipe = (dir) => {
    for (const name of FS.readdir(dir)) {
      if (name === "." || name === "..") continue;
      const path = `${dir}/${name}`;
      const st = FS.lstat(path);
      if (FS.isDir(st.mode)) {
        wipe(path);
        FS.rmdir(path);
      } else {
        FS.unlink(path);
      }
    }
  };
  // Modes a run set inside /tmp (chmod 000 on a directory) must not stop the wipe.
  FS.ignorePermissions = true;
  try {
    wipe("/tmp");
  } finally {
    FS.ignorePermissions = false;
  }
  FS.chdir("/tmp");
  tmpBytesWritten = 0;
}

// ---- sockets: Emscripten's socket layer would open real connections through the `ws` package -------------
function hardenSockets() {
  const SOCKFS = py._module.SOCKFS;
  const E = py.ERRNO_CODES;
  if (!SOCKFS?.websocket_sock_ops) throw new Error("SOCKFS.websocket_sock_ops not found: cannot disable sockets");
  const ops = SOCKFS.websocket_sock_ops;
  for (const key of ["connect", "listen", "bind", "createPeer", "sendmsg", "accept"]) {
    ops[key] = () => {
      throw new py.FS.ErrnoError(E.EACCES);
    };
  }
  // Pyodide's opt-in Node socket layer (node:net, which Node 20's permission model does not cover).
  const api = py._api;
  api.initializeNodeSockFS = () => {
    throw new Error("sockets are disabled in the code sandbox");
  };
  delete api._nodeSock;
}

// ---- stdout/stderr --------------------------------------------------------------------------------------
// Python's print() goes to the runner's capture object; this catches fd-level writes (os.write(1, ...), C code).
function makeSink(cap) {
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const sink = {
    text: "",
    dropped: 0,
    reset() {
      sink.text = "";
      sink.dropped = 0;
    },
    write(buf) {
      const room = cap - sink.text.length;
      if (room > 0) {
        const s = decoder.decode(buf, { stream: true });
        sink.text += s.length > room ? s.slice(0, room) : s;
        if (s.length > room) sink.dropped += s.length - room;
      } else {
        sink.dropped += buf.length;
      }
      return buf.length;
    },
  };
  return sink;
}
function setUpCapture() {
  fdOut = makeSink(cfg.outputCapChars);
  fdErr = makeSink(cfg.outputCapChars);
  py.setStdout({ write: (buf) => fdOut.write(buf), isatty: false });
  py.setStderr({ write: (buf) => fdErr.write(buf), isatty: false });
}

// ---- JS globals: nothing left to build code from or to reach the host with -------------------------------
function hardenGlobals() {
  const g = globalThis;
  for (const name of [
    "process",
    "require",
    "module",
    "exports",
    "global",
    "fetch",
    "WebSocket",
    "EventSource",
    "XMLHttpRequest",
    "eval",
    "BroadcastChannel",
    "MessageChannel",
    "MessagePort",
    "Worker",
    "SharedWorker",
    "importScripts",
    "setTimeout",
    "setInterval",
    "setImmediate",
    "queueMicrotask",
    "clearTimeout",
    "clearInterval",
    "clearImmediate",
  ]) {
    try {
      delete g[name];
    } catch {
      // non-configurable: nothing to do
    }
    if (name in g) {
      try {
        Object.defineProperty(g, name, { value: undefined, writable: false, configurable: false });
      } catch {
        // ignore
      }
    }
  }
  const stub = function Function() {
    throw new EvalError("code generation is disabled in the code sandbox");
  };
  g.Function = stub;
  // `anyFunction.constructor` is how a JsProxy reached Function without `import js`; also cover the async and
  // generator variants, which have their own prototypes.
  const protos = [
    Object.getPrototypeOf(() => {}),
    Object.getPrototypeOf(async () => {}),
    Object.getPrototypeOf(function* () {}),
    Object.getPrototypeOf(async function* () {}),
  ];
  for (const proto of protos) {
    Object.defineProperty(proto, "constructor", { value: undefined, writable: false, configurable: false });
  }
  // A hook here would run Python from JS at arbitrary later moments (e.g. after the memory roll-back).
  Object.defineProperty(Error, "prepareStackTrace", { value: undefined, writable: false, configurable: false });
}

// ---- tripwire: JS state a snippet could have changed through a JsProxy ------------------------------------
// Rolling back wasm memory does not roll back the JS heap. Python can still reach JS intrinsics (to_js([]) is
// an Array, its constructor is Array, ...) and assign to them; such a change would outlive the run. We record
// the own properties of the reachable intrinsics once and compare after every run; any difference (or a timer
// left behind) retires the worker instead of letting the next run see it.
function intrinsicRoots() {
  const roots = new Set();
  const add = (v) => {
    if ((typeof v === "object" && v !== null) || typeof v === "function") roots.add(v);
  };
  for (const key of Reflect.ownKeys(globalThis)) {
    const d = Reflect.getOwnPropertyDescriptor(globalThis, key);
    if (!d || !("value" in d)) continue;
    add(d.value);
    if (typeof d.value === "function") add(d.value.prototype);
  }
  const extra = [
    () => {},
    async () => {},
    function* () {},
    async function* () {},
    [][Symbol.iterator](),
    new Map()[Symbol.iterator](),
    new Set()[Symbol.iterator](),
    ""[Symbol.iterator](),
    new Uint8Array(0),
    runSnippet,
  ];
  for (const v of extra) {
    for (let p = Object.getPrototypeOf(v); p; p = Object.getPrototypeOf(p)) add(p);
  }
  roots.add(globalThis);
  // Classes whose prototypes are reachable (e.g. Pyodide's PyProxy class via a proxy's prototype chain).
  for (const obj of [...roots]) {
    const d = Reflect.getOwnPropertyDescriptor(obj, "constructor");
    if (d && typeof d.value === "function") roots.add(d.value);
  }
  return [...roots];
}
function describe(obj) {
  const out = [];
  for (const key of Reflect.ownKeys(obj)) {
    const d = Reflect.getOwnPropertyDescriptor(obj, key);
    if (!d) continue;
    out.push(key, d.value, d.get, d.set);
  }
  out.push(Object.getPrototypeOf(obj), Object.isExtensible(obj));
  return out;
}
function takeBaseline() {
  baseline = intrinsicRoots().map((obj) => [obj, describe(obj)]);
  baselineResources = resourceSummary();
}
function resourceSummary() {
  return activeResources
    ? activeResources()
        .filter((r) => r !== "MessagePort")
        .sort()
        .join(",")
    : "";
}
function tampered() {
  for (const [obj, before] of baseline) {
    let now;
    try {
      now = describe(obj);
    } catch {
      return "an intrinsic became unreadable";
    }
    if (now.length !== before.length) return "JS intrinsics were changed";
    for (let i = 0; i < now.length; i++) {
      if (!Object.is(now[i], before[i])) return "JS intrinsics were changed";
    }
  }
  if (resourceSummary() !== baselineResources) return "a run left JS timers or handles behind";
  return null;
}

// ---- state reset -------------------------------------------------------------------------------------
function resetState() {
  // Wasm memory cannot shrink: memory beyond the image stays. Zero what the run's allocator handed out there
  // (up to the break, read before the roll-back resets it), so no data of this run survives into the next; the
  // rest is still zero from earlier resets. Zeroing only up to the break keeps this cheap on a grown worker.
  const brk = py._module._sbrk(0) >>> 0;
  const heap = new Uint8Array(memory());
  heap.set(pristine);
  if (brk > pristine.length) heap.fill(0, pristine.length, Math.min(brk, heap.length));
  resetFilesystem();
  fdOut.reset();
  fdErr.reset();
  Atomics.store(new Int32Array(cfg.interruptBuffer), 0, 0);
  memoryGeneration++;
  resets++;
}

// ---- jobs -------------------------------------------------------------------------------------------
port.on("message", (msg) => {
  if (msg.type === "run" || msg.type === "check") handleJob(msg);
});

function handleJob(msg) {
  const started = perf.now();
  let envelope;
  let fatal = null;
  try {
    envelope =
      msg.type === "run"
        ? runSnippet(msg.code, msg.inputsJson, cfg.outputCapChars, cfg.resultCapBytes, cfg.tracebackCapChars)
        : checkSyntax(msg.code);
  } catch (e) {
    // Only a JS-level failure gets here (the runner catches every Python exception): treat the instance as dead.
    fatal = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  }
  const durationMs = perf.now() - started;
  const reply = { type: "result", id: msg.id, durationMs, fatal };
  if (envelope !== undefined) {
    // The runner already enforces the caps; this bounds what crosses to the host even if a snippet patched the
    // runner module for its own run.
    const maxChars = 2 * cfg.resultCapBytes + 12 * cfg.outputCapChars + 6 * cfg.tracebackCapChars + 16_384;
    reply.envelope = typeof envelope === "string" && envelope.length <= maxChars ? envelope : '{"status":"too_large"}';
    reply.fdStdout = fdOut.text;
    reply.fdStderr = fdErr.text;
    reply.fdDropped = fdOut.dropped + fdErr.dropped;
  }
  port.postMessage(reply);
  if (fatal) {
    port.postMessage({ type: "idle", recycle: `instance failed: ${fatal}`, memBytes: memory().byteLength });
    return;
  }
  // Roll back on the next macrotask: microtasks a run queued (promise callbacks into Python) run first, against
  // the state they were made for; the host counts this worker busy until "idle" and kills it if that never comes.
  setImmediateFn(() => {
    let recycle = null;
    try {
      resetState();
      recycle = tampered();
    } catch (e) {
      recycle = `reset failed: ${e instanceof Error ? e.message : String(e)}`;
    }
    port.postMessage({ type: "idle", recycle, memBytes: memory().byteLength, resets });
  });
}

// ---- start-up (last, so every declaration above is initialised) ---------------------------------------
try {
  const started = perf.now();
  const { loadPyodide } = await import(cfg.pyodideUrl);
  const options = { indexURL: cfg.pyodideIndexURL, stdout: () => {}, stderr: () => {} };
  if (cfg.mode === "snapshot") options._makeSnapshot = true;
  if (cfg.mode === "pool") options._loadSnapshot = new Uint8Array(cfg.snapshot).slice();
  py = await loadPyodide(options);

  if (cfg.mode !== "pool") {
    // Define the runner module; it also preloads the stdlib modules snippets commonly use. It gets a private copy
    // of the builtins, so a snippet that rebinds builtins.len & co. breaks only its own code, not the reporting.
    const ns = py.toPy({ src: cfg.runnerSource });
    py.runPython(
      [
        "import builtins, sys, types",
        'm = types.ModuleType("_flowbench_runner")',
        "m.__dict__['__builtins__'] = dict(builtins.__dict__)",
        'exec(compile(src, "<flowbench-runner>", "exec"), m.__dict__)',
        'sys.modules["_flowbench_runner"] = m',
        "del m, src",
      ].join("\n"),
      { globals: ns },
    );
    ns.destroy();
  }

  if (cfg.mode === "snapshot") {
    const bytes = py.makeMemorySnapshot();
    port.postMessage({ type: "snapshot", bytes, ms: perf.now() - started }, [bytes.buffer]);
    process.exit(0);
  }

  // Done here, after the snapshot: unregistering `js` frees a JS reference the snapshot format insists on.
  unregisterJsModules();
  disableBuiltinModules();
  const runner = py.pyimport("_flowbench_runner");
  const disabled = py.toPy(DISABLED_BUILTINS);
  runner.finish_setup(disabled);
  disabled.destroy();
  // Own references (not borrowed attribute proxies), kept for the worker's lifetime.
  runSnippet = runner.run_snippet.copy();
  checkSyntax = runner.check_syntax.copy();
  runner.destroy();
  hardenFilesystem();
  hardenSockets();
  setUpCapture();
  py.setInterruptBuffer(new Int32Array(cfg.interruptBuffer));
  hardenGlobals();
  takeBaseline();
  pristine = new Uint8Array(memory()).slice();
  port.postMessage({ type: "ready", ms: perf.now() - started, memBytes: memory().byteLength });
} catch (e) {
  fail("start-up", e);
}
