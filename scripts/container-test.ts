/**
 * The container test (`npx tsx scripts/container-test.ts`; meant for `.ci/run` after `npm test`). Builds the images
 * and brings up compose.yaml with podman-compose, then through the balancer, as an operator's users would:
 *
 * 1. a compose start without NEXTAUTH_SECRET is refused with a message naming it;
 * 2. the project comes up: PostgreSQL, two app instances (both ready), the balancer, the sample app;
 * 3. an admin signs in (next-auth credentials) and keeps the browser session's cookie;
 * 4. a run of the seeded golden set at pipeline_live (the agent calls the sample app) is started and, in the middle
 *    of answering, one app container's server process is killed with SIGKILL;
 * 5. the run completes with every item answered exactly once, the killed container comes back (its restart policy)
 *    and is ready again, and the session cookie made before the kill works on both instances.
 *
 * Everything is torn down at the end, also on failure or Ctrl-C (containers, volumes, the project's network);
 * KEEP_UP=1 leaves it running. Images stay, so a second run only rebuilds what changed.
 *
 * Podman on these machines: the folder of `setup-podman.sh`, `make-*-image.sh` and `containers.conf`
 * (FLOWBENCH_CONTAINERS_DIR, else `../shared/containers` beside the repository, else /work/shared/containers).
 * What is missing (podman, the Debian, Node and PostgreSQL base images) is made first.
 */
import { type SpawnOptions, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const T0 = Date.now();
const elapsed = () => `${Math.round((Date.now() - T0) / 1000)} s`;
const log = (m: string) => console.log(`[container] ${m} (${elapsed()})`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class TestFailure extends Error {}
function fail(message: string): never {
  throw new TestFailure(message);
}
function check(ok: unknown, message: string): void {
  if (!ok) fail(message);
}

// ------------------------------------------------------------------------------------------------ the machine

function containersDir(): string {
  const candidates = [
    process.env.FLOWBENCH_CONTAINERS_DIR,
    path.resolve(ROOT, "..", "shared", "containers"),
    "/work/shared/containers",
  ].filter((d): d is string => Boolean(d));
  const found = candidates.find((d) => fs.existsSync(path.join(d, "containers.conf")));
  if (!found) {
    fail(
      `no podman set-up folder (containers.conf, setup-podman.sh, make-*-image.sh) in ${candidates.join(", ")}: ` +
        "set FLOWBENCH_CONTAINERS_DIR to it",
    );
  }
  return found;
}

const CT = containersDir();
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), "flowbench-ct-"));
const PROJECT = `fbct${process.pid}`;
const TAG = process.env.FLOWBENCH_TAG || "ci";

type Result = { code: number; out: string };
type RunOptions = Omit<SpawnOptions, "env"> & {
  logFile?: string;
  /** added to the environment; a name given as undefined is removed from it */
  env?: Record<string, string | undefined>;
};
/** Runs a command; its output goes to `logFile` (then the result holds the file's tail) or is collected. */
function run(cmd: string, args: string[], opts: RunOptions = {}) {
  return new Promise<Result>((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, CONTAINERS_CONF: path.join(CT, "containers.conf"), ...opts.env };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
    const child = spawn(cmd, args, { cwd: ROOT, ...opts, env, stdio: ["ignore", "pipe", "pipe"] });
    const file = opts.logFile ? fs.createWriteStream(opts.logFile) : undefined;
    let out = "";
    const take = (chunk: Buffer) => {
      if (file) file.write(chunk);
      else out += chunk.toString();
    };
    child.stdout?.on("data", take);
    child.stderr?.on("data", take);
    child.on("error", (e) => {
      file?.end();
      resolve({ code: 127, out: `${cmd}: ${e.message}` });
    });
    child.on("close", (code) => {
      if (!file) return resolve({ code: code ?? 1, out });
      file.end(() => {
        const text = fs.readFileSync(opts.logFile!, "utf8");
        resolve({ code: code ?? 1, out: text.split("\n").slice(-40).join("\n") });
      });
    });
  });
}

async function must(what: string, cmd: string, args: string[], opts: RunOptions = {}) {
  const r = await run(cmd, args, opts);
  if (r.code !== 0) fail(`${what} failed (exit ${r.code}):\n${r.out}`);
  return r.out;
}

const podman = (args: string[]) => run("podman", args);
const imageExists = async (name: string) => (await podman(["image", "exists", name])).code === 0;

/** podman, runc and podman-compose, and the base images the Dockerfiles start from (what ci-recipe.sh makes). */
async function prepareMachine(): Promise<void> {
  const have = async (c: string) => (await run("sh", ["-c", `command -v ${c}`])).code === 0;
  if (!((await have("podman")) && (await have("podman-compose")) && (await have("runc")))) {
    log("installing podman (setup-podman.sh)");
    await must("setup-podman.sh", path.join(CT, "setup-podman.sh"), [], { logFile: path.join(WORK, "setup.log") });
  }
  if (!(await imageExists("localhost/debian:bookworm"))) {
    log("making the Debian base image (make-base-image.sh)");
    await must("make-base-image.sh", path.join(CT, "make-base-image.sh"), [path.join(WORK, "base")], {
      logFile: path.join(WORK, "base.log"),
    });
  }
  if (!(await imageExists("localhost/node:20-bookworm-slim"))) {
    log("making the Node image (make-node-image.sh)");
    await must("make-node-image.sh", path.join(CT, "make-node-image.sh"), [], { logFile: path.join(WORK, "node.log") });
  }
}

/** The project's four images at once (the app's build is the long one); PostgreSQL's base image beside them. */
async function buildImages(): Promise<void> {
  const build = (name: string, context: string, extra: string[] = []) => {
    const started = Date.now();
    return must(
      `building ${name}`,
      "podman",
      ["build", "--format", "docker", "-t", `localhost/${name}:${TAG}`, ...extra, context],
      { logFile: path.join(WORK, `build-${name}.log`) },
    ).then(() => log(`image ${name} built in ${Math.round((Date.now() - started) / 1000)} s`));
  };
  const postgres = (async () => {
    if (await imageExists("localhost/postgres:15")) return;
    log("making the PostgreSQL image (make-postgres-image.sh)");
    await must("make-postgres-image.sh", path.join(CT, "make-postgres-image.sh"), [], {
      logFile: path.join(WORK, "postgres.log"),
    });
  })();
  // `npm test` has just type-checked this tree: the image's build skips next build's type check
  await Promise.all([
    build("flowbench", ".", ["--build-arg", "SKIP_TYPECHECK=1"]),
    build("flowbench-meals", "sample-app"),
    build("flowbench-lb", "ops/lb"),
    postgres,
  ]);
}

// ------------------------------------------------------------------------------------------------ the project

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

const secret = (n = 24) => randomBytes(n).toString("base64url");
const ADMIN = { email: "ops@example.com", password: secret(12), token: `ct_${secret()}` };

/**
 * The environment compose interpolates: the test's values, and every other ${VAR} of compose.yaml removed, so that
 * nothing of a developer's own environment reaches the project (their .env neither: see `compose`).
 */
function composeEnv(port: number, overrides: Record<string, string> = {}): Record<string, string | undefined> {
  const text = fs.readFileSync(path.join(ROOT, "compose.yaml"), "utf8");
  const names = [...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
  return {
    ...Object.fromEntries(names.map((n) => [n, undefined])),
    FLOWBENCH_TAG: TAG,
    FLOWBENCH_PORT: String(port),
    NEXTAUTH_SECRET: secret(32),
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    POSTGRES_PASSWORD: secret(),
    FLOWBENCH_INIT_ADMIN_EMAIL: ADMIN.email,
    FLOWBENCH_INIT_ADMIN_PASSWORD: ADMIN.password,
    FLOWBENCH_INIT_API_TOKEN: ADMIN.token,
    ...overrides,
  };
}

let env: Record<string, string | undefined> = {};
let up = false;
/**
 * podman-compose on a copy of compose.yaml in the work folder: podman-compose 1.0 lets a `.env` beside the compose
 * file win over the environment, and a checkout may hold a developer's. The images are built beforehand
 * (buildImages), so the copy's build contexts are never used.
 */
const composeFile = path.join(WORK, "compose.yaml");
fs.copyFileSync(path.join(ROOT, "compose.yaml"), composeFile);
const compose = (args: string[], opts: RunOptions = {}) =>
  run("podman-compose", ["-p", PROJECT, "-f", composeFile, ...args], { ...opts, env: { ...env, ...opts.env } });
const container = (service: string) => `${PROJECT}_${service}_1`;

async function teardown(): Promise<void> {
  if (!up) return;
  up = false;
  if (process.env.KEEP_UP === "1") {
    console.log(`[container] KEEP_UP=1: the project ${PROJECT} stays up (podman-compose -p ${PROJECT} down -v)`);
    return;
  }
  const t = Date.now();
  // by the project's label, not `podman-compose down`: it works whatever state compose's interpolation is in
  const label = `label=io.podman.compose.project=${PROJECT}`;
  const ids = (await podman(["ps", "-aq", "--filter", label])).out.split("\n").filter(Boolean);
  if (ids.length) await podman(["rm", "-f", "-v", "-t", "5", ...ids]); // -v: the anonymous volumes of the images' VOLUMEs too
  await podman(["network", "rm", "-f", `${PROJECT}_default`]);
  const volumes = (await podman(["volume", "ls", "-q", "--filter", label])).out.split("\n").filter(Boolean);
  if (volumes.length) await podman(["volume", "rm", "-f", ...volumes]);
  log(`torn down in ${Math.round((Date.now() - t) / 1000)} s`);
}

async function logsOf(service: string, lines = 40): Promise<string> {
  return (await podman(["logs", "--tail", String(lines), container(service)])).out;
}

/** Polls `probe` until it returns a value; on timeout fails naming what it waited for and what it saw last. */
async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
  intervalMs = 500,
  services: string[] = [],
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last = "";
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (e) {
      last = (e as Error).message;
    }
    if (Date.now() > until) {
      const logs = await Promise.all(services.map(async (s) => `--- ${s}:\n${await logsOf(s)}`));
      fail(
        `timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (last: ${last})` : ""}\n${logs.join("\n")}`,
      );
    }
    await sleep(intervalMs);
  }
}

/** GET inside an app container (the instances publish no port): status and body, with an optional header. */
async function fetchInside(service: string, pathName: string, headers: Record<string, string> = {}) {
  const script = `fetch("http://127.0.0.1:3000${pathName}",{headers:${JSON.stringify(headers)},signal:AbortSignal.timeout(5000)}).then(async r=>{console.log(JSON.stringify({status:r.status,body:await r.text()}))},e=>{console.log(JSON.stringify({status:0,body:String(e)}))})`;
  const r = await podman(["exec", container(service), "node", "-e", script]);
  if (r.code !== 0) throw new Error(`podman exec ${service}: ${r.out.trim()}`);
  return JSON.parse(r.out.trim().split("\n").at(-1)!) as { status: number; body: string };
}

// ------------------------------------------------------------------------------------------------ the test

async function main(): Promise<void> {
  log(`podman set-up from ${CT}; work folder ${WORK}`);
  await prepareMachine();
  await buildImages();

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;

  // 1. no NEXTAUTH_SECRET: compose refuses before creating anything, naming the variable
  env = { ...composeEnv(port), NEXTAUTH_SECRET: undefined };
  const refused = await compose(["up", "-d", "--no-build"]);
  up = true; // had it started anything, the teardown removes it
  check(refused.code !== 0, `compose started without NEXTAUTH_SECRET:\n${refused.out}`);
  check(refused.out.includes("NEXTAUTH_SECRET"), `the refusal does not name NEXTAUTH_SECRET:\n${refused.out}`);
  log("without NEXTAUTH_SECRET compose refuses to start, naming it");
  // ... and given empty (podman-compose 1.0 hands that over), the server refuses to start, naming it
  const empty = await run("timeout", [
    "120",
    "podman",
    "run",
    "--rm",
    "--network",
    "none",
    "--label",
    `io.podman.compose.project=${PROJECT}`,
    "-e",
    "FLOWBENCH_REQUIRE_NEXTAUTH_SECRET=on",
    "-e",
    "NEXTAUTH_SECRET=",
    `localhost/flowbench:${TAG}`,
  ]);
  check(
    empty.code !== 0 && empty.code !== 124 && /NEXTAUTH_SECRET: NEXTAUTH_SECRET must be set/.test(empty.out),
    `the app started with an empty NEXTAUTH_SECRET (exit ${empty.code}):\n${empty.out.slice(-2000)}`,
  );
  log("with NEXTAUTH_SECRET empty the app refuses to start, naming it");

  // 2. up
  env = composeEnv(port);
  const started = await compose(["up", "-d", "--no-build"], { logFile: path.join(WORK, "up.log") });
  if (started.code !== 0) fail(`podman-compose up failed (exit ${started.code}):\n${started.out}`);
  log(`compose project ${PROJECT} up; balancer on ${base}`);
  for (const app of ["app1", "app2"]) {
    await waitFor(
      `${app} to be ready (GET /api/health/ready 200)`,
      240_000,
      async () => ((await fetchInside(app, "/api/health/ready")).status === 200 ? true : undefined),
      1000,
      [app, "db"],
    );
  }
  log("app1 and app2 ready");
  const lb = async (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) => {
    const r = await fetch(`${base}${p}`, {
      method,
      headers: {
        authorization: `Bearer ${ADMIN.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await r.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: r.status, body: json };
  };
  const ok = async (method: string, p: string, body?: unknown, want = [200, 201]) => {
    const r = await lb(method, p, body);
    if (!want.includes(r.status)) fail(`${method} ${p}: ${r.status} ${JSON.stringify(r.body).slice(0, 500)}`);
    return r.body;
  };
  await waitFor(
    "the balancer to route to a ready instance",
    60_000,
    async () => {
      const r = await lb("GET", "/api/health/ready");
      return r.status === 200 ? true : undefined;
    },
    500,
    ["lb"],
  );

  // 3. a browser session, through the balancer
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const signIn = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
    body: new URLSearchParams({ csrfToken, email: ADMIN.email, password: ADMIN.password, json: "true" }),
  });
  const cookie = signIn.headers
    .getSetCookie()
    .find((c) => c.startsWith("next-auth.session-token="))
    ?.split(";")[0];
  check(cookie, `sign-in through the balancer gave no session cookie (${signIn.status})`);
  const me = async (via: () => Promise<{ status: number; body: string }>) => {
    const r = await via();
    return r.status === 200 && (JSON.parse(r.body) as { result: { data: { email: string } } }).result.data.email;
  };
  const meLb = () =>
    fetch(`${base}/api/trpc/me`, { headers: { cookie: cookie! } }).then(async (r) => ({
      status: r.status,
      body: await r.text(),
    }));
  check((await me(meLb)) === ADMIN.email, "the new session is not valid through the balancer");
  log("signed in through the balancer (browser session cookie)");

  // 4. the seeded golden set at pipeline_live
  const agent = (await ok("GET", "/api/builder/agents?q=Meal%20recommendation")).items[0];
  check(agent, "the sample agent was not seeded");
  const set = (await ok("GET", `/api/eval/sets?agentId=${agent.id}`)).items.find(
    (s: { kind: string }) => s.kind === "golden",
  );
  check(set, "the sample agent has no golden set");
  const frozen = (await ok("GET", `/api/eval/sets/${set.id}`)).versions.find(
    (v: { status: string }) => v.status === "frozen",
  );
  check(frozen, "the golden set has no frozen version");
  // concurrency 2: the run lasts long enough to be cut in the middle, and each instance holds jobs meanwhile
  const created = await ok("POST", "/api/eval/runs", {
    setVersionId: frozen.id,
    mode: "in_platform",
    tier: "pipeline_live",
    environment: "container-test",
    concurrency: 2,
  });
  await ok("POST", `/api/eval/runs/${created.shortId}/start`);
  const runNow = () => ok("GET", `/api/eval/runs/${created.id}`);
  const total: number = (await runNow()).progress.total;
  log(`run ${created.shortId} of ${total} items at pipeline_live started`);

  // in the middle of answering: some items answered, most not yet
  const before = await waitFor(
    "the run to get going (2 items answered)",
    240_000,
    async () => {
      const r = await runNow();
      if (r.progress.answered >= total) fail("the run finished before the kill: it cannot test a kill mid-run");
      return r.progress.answered >= 2 ? r : undefined;
    },
    150,
    ["app1", "app2"],
  );
  const victim = "app1";
  const inspect = async () => {
    const r = await podman([
      "inspect",
      "-f",
      "{{.State.Pid}} {{.State.StartedAt}} {{.RestartCount}}",
      container(victim),
    ]);
    const [pid, ...rest] = r.out.trim().split(" ");
    return { pid: Number(pid), started: rest.slice(0, -1).join(" "), restarts: Number(rest.at(-1)) };
  };
  const was = await inspect();
  check(was.pid > 0, `no server process in ${container(victim)}`);
  // kill -9 of the container's server process (the host's view of it), as a crash or the OOM killer would
  process.kill(was.pid, "SIGKILL");
  const killedAt = Date.now();
  log(
    `killed ${victim}'s server process (pid ${was.pid}) with SIGKILL at ${before.progress.answered}/${total} answered`,
  );

  // 5a. the killed container comes back by its restart policy, and is ready again
  const back = await waitFor(
    `${victim} to be restarted by its restart policy`,
    60_000,
    async () => {
      const now = await inspect();
      return now.pid > 0 && now.pid !== was.pid ? now : undefined;
    },
    250,
    [victim],
  );
  log(`${victim} restarted after ${((Date.now() - killedAt) / 1000).toFixed(1)} s (restart count ${back.restarts})`);

  // 5b. the run completes, every item answered exactly once
  const done = await waitFor(
    "the run to finish answering (status awaiting_review)",
    300_000,
    async () => {
      const r = await lb("GET", `/api/eval/runs/${created.id}`);
      if (r.status !== 200) throw new Error(`GET run: ${r.status}`); // a request cut by the kill: asked again
      return r.body.status === "awaiting_review" ? r.body : undefined;
    },
    500,
    ["app1", "app2"],
  );
  log(`run answered ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`);
  const items = (await ok("GET", `/api/eval/runs/${created.id}/items?limit=100`)).items as Array<{
    id: string;
    status: string;
    attempts: number;
    traceId: string | null;
    error: string | null;
    payload: { goods_list?: unknown[] } | null;
  }>;
  const unanswered = items.filter((i) => i.status !== "answered" || i.error);
  check(
    done.progress.answered === total && done.progress.failed === 0 && unanswered.length === 0,
    `progress after the kill: ${JSON.stringify(done.progress)}; not answered: ${JSON.stringify(
      unanswered.map((i) => ({ id: i.id, status: i.status, attempts: i.attempts, error: i.error })),
    )}`,
  );
  check(items.length === total, `${items.length} items listed, ${total} expected`);
  for (const item of items) {
    check(item.status === "answered" && !item.error, `item ${item.id}: ${item.status} ${item.error ?? ""}`);
    check((item.payload?.goods_list?.length ?? 0) > 0, `item ${item.id}: no goods from the sample app`);
    check(item.attempts >= 1 && item.attempts <= 2, `item ${item.id}: ${item.attempts} attempts`);
  }
  const traceIds = new Set(items.map((i) => i.traceId));
  check(traceIds.size === total && !traceIds.has(null), "items do not each have one trace of their own");
  for (const id of traceIds) {
    const t = await ok("GET", `/api/traces/${id}`);
    check(t.status === "succeeded", `trace ${id} of an answer is ${t.status}`);
  }
  const retried = items.filter((i) => i.attempts === 2).length;
  const takeover = [...(await logsOf("app2", 400)).split("\n"), ...(await logsOf(victim, 400)).split("\n")].filter(
    (l) => /not seen for a lease|stopped renewing its lease/.test(l),
  );
  log(
    `every item answered once (${total}, ${retried} answered a second time after the kill cut them off); ` +
      `take-over log lines: ${takeover.length ? takeover.map((l) => l.trim()).join(" | ") : "none"}`,
  );

  // 5c. the restarted instance is ready, and the session made before the kill works on both instances
  await waitFor(
    `the restarted ${victim} to be ready again`,
    120_000,
    async () => ((await fetchInside(victim, "/api/health/ready")).status === 200 ? true : undefined),
    1000,
    [victim],
  );
  for (const app of ["app1", "app2"]) {
    check(
      (await me(() => fetchInside(app, "/api/trpc/me", { cookie: cookie! }))) === ADMIN.email,
      `the session made before the kill is refused by ${app}`,
    );
  }
  for (let i = 0; i < 4; i++) check((await me(meLb)) === ADMIN.email, "the session is refused through the balancer");
  log("the restarted instance is ready; the session made before the kill works on app1, app2 and the balancer");
}

let exitCode = 0;
const onSignal = (signal: NodeJS.Signals) => {
  console.error(`[container] ${signal}: tearing down`);
  teardown().finally(() => process.exit(130));
};
process.once("SIGINT", onSignal);
process.once("SIGTERM", onSignal);
try {
  await main();
  log("PASSED");
} catch (e) {
  exitCode = 1;
  console.error(`[container] FAILED: ${e instanceof TestFailure ? e.message : (e as Error).stack}`);
  // every container's log beside the build logs, before the teardown removes them
  for (const service of ["db", "app1", "app2", "lb", "meals"]) {
    const r = await podman(["logs", container(service)]).catch(() => ({ out: "" }));
    fs.writeFileSync(path.join(WORK, `${service}.log`), r.out);
  }
  console.error(`[container] logs: ${WORK}`);
} finally {
  await teardown().catch((e: unknown) => console.error(`[container] teardown: ${(e as Error).message}`));
  if (!exitCode) fs.rmSync(WORK, { recursive: true, force: true });
}
process.exit(exitCode);
