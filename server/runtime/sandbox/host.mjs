// The code sandbox host: a separate Node process (started by client.ts with the permission-model flags, see
// README.md) that owns a pool of worker_threads, each with one Pyodide (worker.mjs). It speaks JSON messages over
// the IPC channel. Plain .mjs on purpose: spawned as-is, never bundled.
//
// client -> host: {type:"run", id, code, inputsJson, timeoutMs} | {type:"check", id, code, timeoutMs}
//                 {type:"abort", id} | {type:"warm", id} | {type:"shutdown"}
// host -> client: {type:"result", id, ok:true, value} | {type:"result", id, ok:false, error:{code, message, ...}}
//                 {type:"stats", workers, busy, queued, restarts}
import { Worker } from "node:worker_threads";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const opts = JSON.parse(process.argv[2] ?? "{}");

const config = {
  workers: clampInt(opts.workers, 1, 16, 2),
  memoryCapBytes: clampInt(opts.memoryCapMb, 64, 2048, 256) * 1024 * 1024,
  recycleAtFraction: 0.8,
  queueMax: clampInt(opts.queueMax, 0, 10_000, 100),
  queueWaitMs: clampInt(opts.queueWaitMs, 100, 600_000, 30_000),
  killGraceMs: clampInt(opts.killGraceMs, 50, 5_000, 300),
  cleanupMs: clampInt(opts.cleanupMs, 500, 60_000, 2_000),
  outputCapChars: clampInt(opts.outputCapChars, 1_024, 16 * 1024 * 1024, 64 * 1024),
  resultCapBytes: clampInt(opts.resultCapBytes, 1_024, 64 * 1024 * 1024, 1024 * 1024),
  tracebackCapChars: 16 * 1024,
  tmpWriteCapBytes: clampInt(opts.tmpWriteCapMb, 1, 1024, 32) * 1024 * 1024,
  useSnapshot: opts.useSnapshot !== false,
  // snapshot-cache.ts: a snapshot an earlier host made, to start from (read-only here), or, in the one-shot maker
  // process (the only one with write permission, and it never runs a snippet), the temporary file to write a new one
  // to (Node 20's permission model refuses rename: the client moves it into place)
  snapshotFile: typeof opts.snapshotFile === "string" ? opts.snapshotFile : null,
  makeSnapshotTo: typeof opts.makeSnapshotTo === "string" ? opts.makeSnapshotTo : null,
  pyodideDir: opts.pyodideDir ?? path.resolve(here, "../../../node_modules/pyodide"),
};

function clampInt(v, min, max, dflt) {
  const n = Number.isFinite(v) ? Math.trunc(v) : dflt;
  return Math.min(max, Math.max(min, n));
}

const runnerSource = readFileSync(path.join(here, "runner.py"), "utf8");
const workerUrl = pathToFileURL(path.join(here, "worker.mjs"));
const pyodideUrl = pathToFileURL(path.join(config.pyodideDir, "pyodide.mjs")).href;
const pyodideIndexURL = config.pyodideDir.endsWith(path.sep) ? config.pyodideDir : config.pyodideDir + path.sep;

// The host dies with its parent: no orphaned Pyodide pools after a crash or `next dev` restart.
process.on("disconnect", () => process.exit(0));

const send = (msg) => {
  if (process.connected) process.send(msg);
};

// ---------------------------------------------------------------------------------------------------------
// Pool state
/** @type {Set<any>} */
const workers = new Set();
/** @type {any[]} */
const queue = [];
/** @type {Map<string, any>} */
const jobs = new Map();
let snapshot = null; // SharedArrayBuffer with the Pyodide memory snapshot, shared by every pool worker
let started = false;
let restarts = 0;
let startFailures = 0;
/** what a call that arrives before any worker is ready waits beyond queueWaitMs: a cold start on a loaded machine */
const COLD_START_MS = 90_000;
let lastStartError = "";
let respawnTimer = null;
let warmWaiters = [];
const timing = { snapshotMs: null, snapshotSource: null, firstReadyMs: null, workerStartMs: [] };
const t0 = performance.now();

function liveWorkers() {
  return [...workers].filter((w) => w.state !== "dead");
}
function readyCount() {
  return [...workers].filter((w) => w.state === "idle" || w.state === "busy" || w.state === "cleaning").length;
}
// Stats go to the client only when they changed, at most once per event-loop turn (IPC is the hot path), and
// always just before a result so a caller sees stats() that include what its call did.
let statsScheduled = false;
let lastStats = "";
function sendStatsIfChanged() {
  statsScheduled = false;
  const stats = {
    type: "stats",
    workers: readyCount(),
    busy: [...workers].filter((w) => w.state === "busy" || w.state === "cleaning").length,
    queued: queue.length,
    restarts,
  };
  const key = JSON.stringify(stats);
  if (key === lastStats) return;
  lastStats = key;
  send(stats);
}
function pushStats() {
  if (statsScheduled) return;
  statsScheduled = true;
  setImmediate(sendStatsIfChanged);
}

async function start() {
  if (started) return;
  started = true;
  if (config.useSnapshot) {
    try {
      snapshot = config.snapshotFile ? readCachedSnapshot(config.snapshotFile) : null;
      if (snapshot) timing.snapshotSource = "cache";
      else {
        snapshot = await makeSnapshot();
        timing.snapshotSource = "made";
      }
    } catch (e) {
      // Fall back to cold starts: slower (seconds per worker) but otherwise identical.
      process.stderr.write(`[code-sandbox] snapshot failed, using cold starts: ${e.message}\n`);
      snapshot = null;
    }
  }
  for (let i = 0; i < config.workers; i++) spawnWorker(false);
}

function workerData(mode, extra = {}) {
  return {
    mode,
    pyodideUrl,
    pyodideIndexURL,
    runnerSource,
    memoryCapBytes: config.memoryCapBytes,
    outputCapChars: config.outputCapChars,
    resultCapBytes: config.resultCapBytes,
    tracebackCapChars: config.tracebackCapChars,
    tmpWriteCapBytes: config.tmpWriteCapBytes,
    ...extra,
  };
}

// JS heap bound for each worker; wasm memory is capped separately inside the worker.
const resourceLimits = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 64 };

// A cached snapshot file: 32 bytes of SHA-256 over the rest, then the snapshot. A missing, short or altered file is
// not used (null): the host makes its own, as without a cache.
const HASH_BYTES = 32;
function readCachedSnapshot(file) {
  let buf;
  try {
    buf = readFileSync(file);
  } catch {
    return null;
  }
  const body = buf.subarray(HASH_BYTES);
  if (buf.length <= HASH_BYTES || !createHash("sha256").update(body).digest().equals(buf.subarray(0, HASH_BYTES))) {
    process.stderr.write(`[code-sandbox] the cached snapshot ${file} does not match its hash: not used\n`);
    send({ type: "snapshot-cache-rejected" }); // the client replaces it
    return null;
  }
  const sab = new SharedArrayBuffer(body.length);
  new Uint8Array(sab).set(body);
  return sab;
}

/** The maker's whole life: make a snapshot, write it where the client said (which renames it into place), exit. */
async function makeSnapshotFile(file) {
  try {
    const body = new Uint8Array(await makeSnapshot());
    writeFileSync(file, Buffer.concat([createHash("sha256").update(body).digest(), body]));
    process.exit(0);
  } catch (e) {
    process.stderr.write(`[code-sandbox] the snapshot cache was not written: ${e.message}\n`);
    process.exit(1);
  }
}

function makeSnapshot() {
  const begun = performance.now();
  return new Promise((resolve, reject) => {
    const w = new Worker(workerUrl, { workerData: workerData("snapshot"), resourceLimits, stdout: true, stderr: true });
    let done = false;
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      void w.terminate();
      reject(new Error("the snapshot worker took longer than 120 s"));
    }, 120_000);
    w.once("exit", () => clearTimeout(timer));
    w.stderr.on("data", (chunk) => process.stderr.write(`[code-sandbox snapshot] ${chunk}`));
    w.stdout.resume();
    w.on("message", (msg) => {
      if (msg.type === "snapshot") {
        done = true;
        const sab = new SharedArrayBuffer(msg.bytes.byteLength);
        new Uint8Array(sab).set(msg.bytes);
        timing.snapshotMs = performance.now() - begun;
        resolve(sab);
      } else if (msg.type === "fatal") {
        done = true;
        reject(new Error(`${msg.stage}: ${msg.message}`));
      }
    });
    w.on("error", (e) => {
      if (!done) reject(e);
      done = true;
    });
    w.on("exit", (code) => {
      if (!done) reject(new Error(`snapshot worker exited with code ${code}`));
      done = true;
    });
  });
}

function spawnWorker(isRestart) {
  if (isRestart) restarts++;
  const interruptBuffer = new SharedArrayBuffer(4);
  const mode = snapshot ? "pool" : "cold";
  const w = {
    state: "starting",
    job: null,
    interrupt: new Int32Array(interruptBuffer),
    begun: performance.now(),
    cleanupTimer: null,
    worker: new Worker(workerUrl, {
      workerData: workerData(mode, { snapshot: snapshot ?? undefined, interruptBuffer }),
      resourceLimits,
      stdout: true, // worker console output is dropped: snippets' output is captured, not logged
      stderr: true,
    }),
  };
  workers.add(w);
  w.worker.stderr.on("data", (chunk) => process.stderr.write(`[code-sandbox worker] ${chunk}`));
  w.worker.stdout.resume();
  w.worker.on("message", (msg) => onWorkerMessage(w, msg));
  w.worker.on("error", (e) => onWorkerGone(w, e instanceof Error ? e : new Error(String(e))));
  w.worker.on("exit", (code) => onWorkerGone(w, new Error(`worker exited with code ${code}`)));
  pushStats();
  return w;
}

function onWorkerMessage(w, msg) {
  if (w.state === "dead") return; // a late message from a worker already retired
  switch (msg.type) {
    case "ready": {
      w.state = "idle";
      startFailures = 0;
      const ms = performance.now() - w.begun;
      timing.workerStartMs.push(Math.round(ms));
      timing.firstReadyMs ??= performance.now() - t0;
      settleWarmWaiters();
      dispatch();
      break;
    }
    case "fatal":
      lastStartError = `${msg.stage}: ${msg.message}`;
      break;
    case "result":
      onResult(w, msg);
      break;
    case "idle":
      clearTimeout(w.cleanupTimer);
      w.cleanupTimer = null;
      if (msg.recycle || msg.memBytes > config.memoryCapBytes * config.recycleAtFraction) {
        // Wasm memory never shrinks; a worker near its cap (or with tampered JS state) is replaced.
        retire(w);
        spawnWorker(true);
      } else {
        w.state = "idle";
        dispatch();
      }
      break;
  }
  pushStats();
}

function onResult(w, msg) {
  const job = w.job;
  w.job = null;
  w.state = "cleaning";
  // The worker rolls its state back after replying; if that never finishes, replace it.
  w.cleanupTimer = setTimeout(() => {
    retire(w);
    spawnWorker(true);
    pushStats();
  }, config.cleanupMs);
  if (!job || job.done) return;
  job.durationMs = msg.durationMs;
  if (msg.fatal) return finish(job, error("SANDBOX_UNAVAILABLE", `the Python instance failed: ${msg.fatal}`));
  let env;
  try {
    env = JSON.parse(msg.envelope);
  } catch {
    return finish(job, error("SANDBOX_UNAVAILABLE", "the runner returned an unreadable reply"));
  }
  if (job.kind === "check") {
    if (env.status === "ok") return finish(job, null, env.errors);
    if (env.status === "interrupted" && job.interruptCode)
      return finish(job, error(job.interruptCode, interruptMessage(job)));
    return finish(job, error("SANDBOX_UNAVAILABLE", env.message ?? "syntax check failed"));
  }
  finish(job, ...translate(job, env, msg));
}

function outputText(pyText, pyDropped, fdText) {
  let text = pyText + (fdText ?? "");
  let dropped = pyDropped;
  if (text.length > config.outputCapChars) {
    dropped += text.length - config.outputCapChars;
    text = text.slice(0, config.outputCapChars);
  }
  return dropped > 0 ? `${text}\n[output truncated: ${dropped} more characters]` : text;
}

function translate(job, env, msg) {
  const out = {
    stdout: outputText(env.stdout ?? "", env.stdoutDropped ?? 0, msg.fdStdout),
    stderr: outputText(env.stderr ?? "", env.stderrDropped ?? 0, msg.fdStderr),
  };
  const withOutput = (e) => ({ ...e, ...out });
  switch (env.status) {
    case "ok":
      if (Buffer.byteLength(env.result, "utf8") > config.resultCapBytes) {
        return [withOutput(error("OUTPUT_TOO_LARGE", `result is larger than ${config.resultCapBytes} bytes of JSON`))];
      }
      return [null, { resultJson: env.result, ...out, durationMs: msg.durationMs }];
    case "syntax":
      return [
        withOutput(
          error("SYNTAX_ERROR", `${env.message} (line ${env.line}, column ${env.column})`, {
            line: env.line,
            column: env.column,
          }),
        ),
      ];
    case "error":
      return [
        withOutput(
          error("PYTHON_ERROR", env.line ? `${env.message} (line ${env.line})` : env.message, {
            line: env.line ?? undefined,
            pythonTraceback: env.traceback,
          }),
        ),
      ];
    case "missing":
      return [withOutput(error("RESULT_MISSING", "the script did not assign a variable named `result`"))];
    case "not_json":
      return [withOutput(error("RESULT_NOT_JSON", `result is not JSON-serialisable: ${env.message}`))];
    case "too_large":
      return [withOutput(error("OUTPUT_TOO_LARGE", `result is larger than ${config.resultCapBytes} bytes of JSON`))];
    case "memory":
      return [error("MEMORY", `the script ran out of memory (cap ${config.memoryCapBytes / 1048576} MiB)`)];
    case "interrupted":
      // No interrupt was sent: the snippet raised KeyboardInterrupt itself.
      if (!job.interruptCode) return [withOutput(error("PYTHON_ERROR", "KeyboardInterrupt"))];
      return [error(job.interruptCode, interruptMessage(job))];
    case "internal":
      // The snippet broke its own error reporting (a raising __str__, a patched runner module, ...).
      return [
        withOutput(error("PYTHON_ERROR", env.message ?? "the script failed in a way that could not be reported")),
      ];
    default:
      return [error("SANDBOX_UNAVAILABLE", `unexpected runner reply: ${String(env.status)}`)];
  }
}

function interruptMessage(job) {
  return job.interruptCode === "ABORTED"
    ? "the run was aborted"
    : `the script exceeded its ${job.timeoutMs} ms time limit`;
}

function error(code, message, extra = {}) {
  return { code, message, ...extra };
}

function finish(job, err, value) {
  if (job.done) return;
  job.done = true;
  clearTimeout(job.deadlineTimer);
  clearTimeout(job.killTimer);
  clearTimeout(job.queueTimer);
  jobs.delete(job.id);
  sendStatsIfChanged();
  if (err) send({ type: "result", id: job.id, ok: false, error: err });
  else send({ type: "result", id: job.id, ok: true, value, durationMs: job.durationMs });
}

// ---------------------------------------------------------------------------------------------------------
// Scheduling

function dispatch() {
  while (queue.length > 0) {
    const w = [...workers].find((x) => x.state === "idle");
    if (!w) break;
    const job = queue.shift();
    clearTimeout(job.queueTimer);
    startJob(w, job);
  }
  if (queue.length > 0 && startFailures >= 3 && readyCount() === 0) {
    // Workers cannot start (e.g. a missing file): fail fast instead of letting callers wait out the queue.
    for (const job of queue.splice(0)) {
      finish(job, error("SANDBOX_UNAVAILABLE", `code sandbox workers fail to start: ${lastStartError}`));
    }
  }
  pushStats();
}

function startJob(w, job) {
  Atomics.store(w.interrupt, 0, 0);
  w.state = "busy";
  w.job = job;
  job.worker = w;
  const msg =
    job.kind === "run"
      ? { type: "run", id: job.id, code: job.code, inputsJson: job.inputsJson }
      : { type: "check", id: job.id, code: job.code };
  w.worker.postMessage(msg);
  job.deadlineTimer = setTimeout(() => interrupt(job, "TIMEOUT"), job.timeoutMs);
}

// Deadline or abort: SIGINT through the interrupt buffer stops Python bytecode within milliseconds; C-level waits
// (time.sleep, a long regex in C, ...) ignore it, so terminate the worker if it has not answered after a grace.
function interrupt(job, code) {
  if (job.done || job.interruptCode) return;
  job.interruptCode = code;
  const w = job.worker;
  if (!w) {
    const i = queue.indexOf(job);
    if (i >= 0) queue.splice(i, 1);
    finish(job, error(code, interruptMessage(job)));
    pushStats();
    return;
  }
  Atomics.store(w.interrupt, 0, 2); // 2 = SIGINT -> KeyboardInterrupt
  job.killTimer = setTimeout(() => {
    if (job.done || w.job !== job) return;
    retire(w);
    spawnWorker(true); // the next call goes to another warm worker meanwhile
    finish(job, error(code, interruptMessage(job)));
  }, config.killGraceMs);
}

function retire(w) {
  if (w.state === "dead") return;
  w.state = "dead";
  clearTimeout(w.cleanupTimer);
  workers.delete(w);
  w.worker.removeAllListeners("exit");
  w.worker.removeAllListeners("error");
  w.worker.on("error", () => {});
  void w.worker.terminate();
}

function onWorkerGone(w, err) {
  if (w.state === "dead") return;
  const wasStarting = w.state === "starting";
  w.state = "dead";
  workers.delete(w);
  clearTimeout(w.cleanupTimer);
  const job = w.job;
  w.job = null;
  const oom = err && /ERR_WORKER_OUT_OF_MEMORY/.test(String(err.code ?? err.message));
  if (job && !job.done) {
    finish(
      job,
      oom
        ? error("MEMORY", "the script exhausted the worker's JS heap")
        : error("SANDBOX_UNAVAILABLE", `the worker crashed: ${err.message}`),
    );
  }
  if (wasStarting) {
    startFailures++;
    if (!lastStartError) lastStartError = err.message;
    // A snapshot that does not load (it should always load: same build, same process) is dropped for cold starts.
    if (startFailures >= 2 && snapshot) {
      process.stderr.write(
        `[code-sandbox] workers fail to start from the snapshot, using cold starts: ${lastStartError}\n`,
      );
      snapshot = null;
    }
  }
  scheduleRespawn();
  settleWarmWaiters();
  dispatch();
}

// Respawn with exponential backoff while workers keep failing to start (a broken install would otherwise loop).
function scheduleRespawn() {
  if (respawnTimer) return;
  const delay = startFailures === 0 ? 0 : Math.min(30_000, 250 * 2 ** (startFailures - 1));
  respawnTimer = setTimeout(() => {
    respawnTimer = null;
    const missing = config.workers - liveWorkers().length;
    for (let i = 0; i < missing; i++) spawnWorker(true);
    pushStats();
  }, delay);
}

// warmUp() resolves once the initial pool is up (or as up as it gets: some workers ready, none still starting),
// and fails once workers have failed to start three times in a row with none ready.
function settleWarmWaiters() {
  if (warmWaiters.length === 0) return;
  sendStatsIfChanged(); // so the client's stats() is current when warmUp() resolves
  const starting = [...workers].some((w) => w.state === "starting");
  const ready = readyCount();
  const failed = startFailures >= 3 && ready === 0;
  if (!failed && !(ready === config.workers || (ready > 0 && !starting))) return;
  const waiters = warmWaiters;
  warmWaiters = [];
  for (const id of waiters) {
    if (!failed) send({ type: "result", id, ok: true, value: { ...timing, workers: ready } });
    else
      send({
        type: "result",
        id,
        ok: false,
        error: error("SANDBOX_UNAVAILABLE", `code sandbox workers fail to start: ${lastStartError}`),
      });
  }
}

// ---------------------------------------------------------------------------------------------------------
// IPC

process.on("message", (msg) => {
  switch (msg?.type) {
    case "run":
    case "check": {
      void start();
      const job = {
        id: msg.id,
        kind: msg.type,
        code: String(msg.code ?? ""),
        inputsJson: msg.inputsJson ?? "{}",
        timeoutMs: clampInt(msg.timeoutMs, 100, 30_000, 5_000),
        done: false,
        worker: null,
        interruptCode: null,
      };
      if (queue.length >= config.queueMax && ![...workers].some((w) => w.state === "idle")) {
        send({
          type: "result",
          id: job.id,
          ok: false,
          error: error("BUSY", `the code sandbox queue is full (${config.queueMax} waiting)`),
        });
        return;
      }
      if (startFailures >= 3 && readyCount() === 0) {
        send({
          type: "result",
          id: job.id,
          ok: false,
          error: error("SANDBOX_UNAVAILABLE", `code sandbox workers fail to start: ${lastStartError}`),
        });
        return;
      }
      jobs.set(job.id, job);
      queue.push(job);
      // A call that arrives while no worker has started yet (the first call after start-up) also waits for a worker to
      // start, which on a loaded machine takes longer than the queue wait: it gets COLD_START_MS more.
      const cold = readyCount() === 0;
      const waitMs = config.queueWaitMs + (cold ? COLD_START_MS : 0);
      job.queueTimer = setTimeout(() => {
        const i = queue.indexOf(job);
        if (i < 0) return;
        queue.splice(i, 1);
        finish(
          job,
          readyCount() === 0
            ? error("SANDBOX_UNAVAILABLE", `no code sandbox worker started within ${waitMs} ms`)
            : error("BUSY", `the code sandbox stayed busy for ${waitMs} ms`),
        );
        pushStats();
      }, waitMs);
      dispatch();
      break;
    }
    case "abort": {
      const job = jobs.get(msg.id);
      if (job) interrupt(job, "ABORTED");
      break;
    }
    case "warm":
      void start();
      warmWaiters.push(msg.id);
      settleWarmWaiters();
      break;
    case "shutdown":
      for (const w of workers) retire(w);
      process.exit(0);
  }
});

if (config.makeSnapshotTo) void makeSnapshotFile(config.makeSnapshotTo);
else send({ type: "hello", pid: process.pid });
