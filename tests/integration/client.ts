import fs from "node:fs";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { describe, expect, inject } from "vitest";
import type { AppRouter } from "@/server/api/root";
import { checkConformance } from "./conformance";
import type { ServerInfo } from "./global-setup";

export const servers = (): ServerInfo[] => inject("servers");

/**
 * The servers an HTTP-shape suite runs against: one database's only (issue 21), PGlite's unless `on` says otherwise.
 * Such a suite checks what the HTTP face answers (statuses, headers, the error shape, documents, clients, hostile
 * input refused before it reaches the database), which is the same code on either database; suites whose behaviour
 * depends on the database (races, row locks, raw SQL, the job queue, several instances) take `servers()`. With the two
 * legs in two processes only that leg's process runs them (and the other leaves whole shape files out:
 * integrationExclude in vitest.config.ts); in one process this picks that server, without a PostgreSQL server PGlite's.
 */
export function shapeServers(on: "pglite" | "postgresql" = "pglite"): ServerInfo[] {
  // npm test's two processes (FLOWBENCH_IT_LEG, set only when a PostgreSQL server answers): the other one runs them
  const leg = process.env.FLOWBENCH_IT_LEG;
  if (leg) return leg === on ? servers() : [];
  const all = servers();
  const chosen = all.filter((s) => s.name === on);
  return chosen.length ? chosen : all;
}

/**
 * `describe` for tests that need no started server. `npm test` runs the PGlite and the PostgreSQL leg at once, in two
 * processes that run the same files (global-setup.ts); these tests are registered in one of them only, so they run
 * (and count) once.
 */
export function describeServerIndependent(name: string, fn: () => void) {
  if (inject("serverIndependent") !== false) describe(name, fn);
}

export type ApiResult<T = any> = { status: number; body: T; headers: Headers; text: string };

/** A real HTTP call to a started server. */
export async function api<T = any>(
  server: ServerInfo,
  method: string,
  path: string,
  opts: { token?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  const token = opts.token === undefined ? server.adminToken : opts.token;
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
  const res = await fetch(`${server.url}${path}`, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const problem = await checkConformance(server.url, method, path, res.status, res.headers.get("content-type"), parsed);
  if (problem) {
    conformanceProblems.push(problem);
    if (process.env.FLOWBENCH_CONFORMANCE === "report")
      fs.appendFileSync(process.env.FLOWBENCH_CONFORMANCE_FILE ?? ".tmp/conformance.txt", `${problem}\n`);
    else throw new Error(`conformance: ${problem}`);
  }
  return { status: res.status, body: parsed as T, headers: res.headers, text };
}

/**
 * The body of an answer with exactly `status` (200 unless given); any other status fails the test with the status and
 * the body. For setup calls and for answers whose status is part of what a test checks.
 */
export async function ok<T = any>(p: Promise<ApiResult<T>>, status = 200): Promise<T> {
  const r = await p;
  expect(r.status, r.text).toBe(status);
  return r.body;
}

/** Every conformance problem seen by api() in this file (FLOWBENCH_CONFORMANCE=report collects instead of failing). */
export const conformanceProblems: string[] = [];

export function trpc(server: ServerInfo, token: string | null = server.adminToken) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({ url: `${server.url}/api/trpc`, headers: () => (token ? { authorization: `Bearer ${token}` } : {}) }),
    ],
  });
}

export function trpcErrorOf(e: unknown): { httpStatus?: number; appCode?: string; message: string } {
  if (e instanceof TRPCClientError) {
    const data = e.data as { httpStatus?: number; appCode?: string } | undefined;
    return { httpStatus: data?.httpStatus, appCode: data?.appCode, message: e.message };
  }
  throw e;
}

/** Creates a token with the given role through the admin face and returns the plain token. */
export async function tokenWithRole(
  server: ServerInfo,
  role: "admin" | "builder" | "annotator" | "viewer",
): Promise<string> {
  const created = await trpc(server).admin.tokens.create.mutate({ name: `it ${role} ${Date.now()}`, role });
  return created.token;
}

export function minimalWorkflow() {
  return {
    nodes: [
      {
        id: "start",
        type: "start",
        config: { outputs: [{ name: "query", type: "string", required: true, default: "" }] },
        position: { x: 0, y: 0 },
      },
      {
        id: "llm_1",
        type: "llm",
        config: { systemPrompt: "You are a helpful assistant.", userPrompt: "{{start.query}}" },
        position: { x: 250, y: 0 },
      },
      { id: "end", type: "end", config: { output: "{{llm_1.result}}" }, position: { x: 500, y: 0 } },
    ],
    edges: [
      { source: "start", target: "llm_1" },
      { source: "llm_1", target: "end" },
    ],
  };
}

/**
 * A set (`body`: POST /api/eval/sets) whose first version holds one sample per key, imported and frozen; and a pasted
 * run of that version answered with `answer(key)`. Over REST, as a person or script would make them.
 */
export async function frozenSetWithPastedRun(
  server: ServerInfo,
  body: Record<string, unknown>,
  keys: string[],
  sample: (key: string) => { question: string; expected_points: string[] },
) {
  const set = await ok(api(server, "POST", "/api/eval/sets", { body }), 201);
  await ok(
    api(server, "POST", `/api/eval/sets/${set.id}/versions/1/import`, {
      body: { format: "json", content: JSON.stringify(keys.map((key) => ({ key, ...sample(key) }))) },
    }),
  );
  const version = await ok(api(server, "POST", `/api/eval/sets/${set.id}/versions/1/freeze`));
  /** A new pasted run of the frozen version, every key answered. */
  const pastedRun = async (answer: (key: string) => string) => {
    const run = await ok(
      api(server, "POST", "/api/eval/runs", { body: { setVersionId: version.id, mode: "pasted" } }),
      201,
    );
    await ok(
      api(server, "POST", `/api/eval/runs/${run.id}/answers`, {
        body: { answers: keys.map((key) => ({ key, answer: answer(key) })) },
      }),
    );
    return run;
  };
  return { set, version, pastedRun };
}

/** Signs in through next-auth's credentials flow over HTTP and returns the session cookie. */
export async function signIn(base: string, email: string, password: string): Promise<string> {
  const csrfRes = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const cookies = csrfRes.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="));
  if (!session) throw new Error(`sign-in failed (${res.status})`);
  return session.split(";")[0]!;
}
