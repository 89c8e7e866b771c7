/**
 * Shared bits of the evaluation CLIs (check_eval_golden_gate, check_eval_wave_c_size, flowbench-eval): argument
 * parsing and REST calls to a Flowbench server with a token. Exit codes: 0 pass, 1 fail, 2 usage / connection / auth /
 * not found (3: still pending when a wait ran out, for the CLIs that wait).
 */
/** Wrong arguments (exit 2, usage shown). */
export class UsageError extends Error {}

export type Flags = Record<string, string | boolean>;

/**
 * `--name value`, `--name=value`, `--flag`. A name in `optional` takes a value only when one follows (`--wait`,
 * `--wait 600`, `--wait=600`); without one it is `true`.
 */
export function parseFlags(argv: string[], spec: { values: string[]; booleans: string[]; optional?: string[] }): Flags {
  const flags: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) throw new UsageError(`unexpected argument "${arg}"`);
    const [name, inline] = arg.slice(2).split("=", 2) as [string, string | undefined];
    if (spec.optional?.includes(name)) {
      const next = argv[i + 1];
      flags[name] = inline ?? (next !== undefined && !next.startsWith("--") ? argv[++i]! : true);
    } else if (spec.booleans.includes(name)) {
      flags[name] = true;
    } else if (spec.values.includes(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value.startsWith("--")) throw new UsageError(`--${name} needs a value`);
      flags[name] = value;
    } else throw new UsageError(`unknown option --${name}`);
  }
  return flags;
}

export type Server = { url: string; token: string };

export function serverFrom(flags: Flags): Server {
  const url = String(flags.url ?? process.env.FLOWBENCH_URL ?? "http://localhost:3000").replace(/\/+$/, "");
  const token = String(flags.token ?? process.env.FLOWBENCH_TOKEN ?? "");
  if (!/^https?:\/\//.test(url)) throw new UsageError(`FLOWBENCH_URL must be an http(s) URL, got "${url}"`);
  if (!token) throw new UsageError("set FLOWBENCH_TOKEN (an API token) or pass --token");
  return { url, token };
}

/**
 * A failure to talk to the server (exit 2). `transient`: the server could not be reached or answered 502/503/504,
 * which a CLI that waits may retry; anything else (401, 404, 400...) is not.
 */
export class ConnectError extends Error {
  constructor(
    message: string,
    readonly transient = false,
  ) {
    super(message);
  }
}

/** GET a JSON resource; any failure that is not the caller's data becomes a ConnectError (exit 2). */
export function getJson<T>(server: Server, path: string): Promise<T> {
  return requestJson<T>(server, "GET", path);
}

/** A JSON request with the token; a non-2xx answer becomes a ConnectError naming its status and error code. */
export async function requestJson<T>(server: Server, method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${server.token}`,
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new ConnectError(
      `cannot reach ${server.url}: ${cause?.code ?? cause?.message ?? (e as Error).message}`,
      true,
    );
  }
  const text = await res.text();
  let answer: unknown;
  try {
    answer = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ConnectError(
      `${server.url}${path} answered ${res.status} with something that is not JSON`,
      [502, 503, 504].includes(res.status),
    );
  }
  if (!res.ok) {
    const err = (answer as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ConnectError(
      `${server.url} answered ${res.status} ${err?.code ?? ""}: ${err?.message ?? text.slice(0, 200)}`,
      [502, 503, 504].includes(res.status),
    );
  }
  return answer as T;
}

export async function main(run: () => Promise<number>, usage: string): Promise<void> {
  let code: number;
  try {
    code = await run();
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`error: ${e.message}\n\n${usage}`);
      code = 2;
    } else {
      console.error(`error: ${(e as Error).message}`);
      code = 2; // connection, auth, unknown run, unexpected answer
    }
  }
  process.exit(code);
}
