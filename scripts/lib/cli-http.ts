/**
 * Shared bits of the evaluation CLIs (check_eval_golden_gate, check_eval_wave_c_size): argument parsing and a REST
 * call to a Flowbench server with a token. Exit codes: 0 pass, 1 fail, 2 usage / connection / auth / not found.
 */
/** Wrong arguments (exit 2, usage shown). */
export class UsageError extends Error {}
/** Unreachable server, bad token, unknown run... (exit 2, no usage). */
export class ConnectError extends Error {}

export type Flags = Record<string, string | boolean>;

export function parseFlags(argv: string[], spec: { values: string[]; booleans: string[] }): Flags {
  const flags: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) throw new UsageError(`unexpected argument "${arg}"`);
    const [name, inline] = arg.slice(2).split("=", 2) as [string, string | undefined];
    if (spec.booleans.includes(name)) {
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

/** GET a JSON resource; any failure that is not the caller's data becomes a UsageError (exit 2). */
export async function getJson<T>(server: Server, path: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${server.token}`, accept: "application/json" },
      signal: AbortSignal.timeout(30_000),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new ConnectError(`cannot reach ${server.url}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ConnectError(`${server.url}${path} answered ${res.status} with something that is not JSON`);
  }
  if (!res.ok) {
    const err = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ConnectError(
      `${server.url} answered ${res.status} ${err?.code ?? ""}: ${err?.message ?? text.slice(0, 200)}`,
    );
  }
  return body as T;
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
