import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../db/test-db";
import type { Db } from "../db/client";
import { createAgent, addVersion } from "../agents/service";
import type { Principal } from "../auth/service";
import { createOfflineProvider } from "../llm";
import { ApiError } from "../core/errors";
import { chat, testRun } from "./service";
import { addFeedback, getTrace, listTraces, markInterruptedTraces, staleRunningCutoff } from "./traces";
import { publishVersion } from "../agents/service";
import { chatCacheKey, normalizeQuestion } from "./cache";
import { HTTP_LIMITS, defaultResolver } from "./http/client";
import type { RuntimeDeps } from "./nodes/context";
import type { LlmProvider } from "./index";
import type { Workflow } from "../workflow";

let db: Db;
let close: () => Promise<void>;
let userId: string;
let actor: Principal;
let otherActor: Principal;

const calls: string[][] = [];
/** The offline provider, recording the roles of each conversation it is given. */
const recording: LlmProvider = {
  name: "offline",
  offline: true,
  chat: async (req) => {
    calls.push(req.messages.map((m) => m.role));
    return createOfflineProvider().chat(req);
  },
};
const deps: RuntimeDeps = {
  llm: recording,
  http: { policy: { rules: [], resolver: defaultResolver, ...HTTP_LIMITS } },
  sandbox: async () => ({ run: async () => ({ result: null, stdout: "", stderr: "", durationMs: 0 }) }),
};

function minimal() {
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
        config: { systemPrompt: "Be brief.", userPrompt: "{{start.query}}" },
        position: { x: 1, y: 0 },
      },
      { id: "end", type: "end", config: { output: "{{llm_1.result}}" }, position: { x: 2, y: 0 } },
    ],
    edges: [
      { source: "start", target: "llm_1" },
      { source: "llm_1", target: "end" },
    ],
  };
}

async function agentWith(workflow: unknown, name = "svc agent") {
  const created = await createAgent(db, { name, workflow }, actor, {});
  return created.agent.id;
}

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected an ApiError");
}

beforeAll(async () => {
  ({ db, close } = await createTestDb());
  userId = (await db.user.create({ data: { email: "svc@example.test", passwordHash: "x", role: "builder" } })).id;
  const other = (await db.user.create({ data: { email: "other@example.test", passwordHash: "x", role: "viewer" } })).id;
  actor = { kind: "user", userId, email: "svc@example.test", role: "builder" };
  otherActor = { kind: "user", userId: other, email: "other@example.test", role: "viewer" };
}, 120_000);
afterAll(async () => close());

describe("publish and chat", () => {
  it("refuses chat before publishing (409 AGENT_NOT_PUBLISHED), then runs the published version at pipeline_live", async () => {
    const id = await agentWith(minimal());
    expect((await apiError(chat(db, id, { message: "hi" }, actor, { deps }))).code).toBe("AGENT_NOT_PUBLISHED");
    expect((await apiError(publishVersion(db, id, 7))).status).toBe(404);
    expect((await apiError(chat(db, "missing-agent", { message: "hi" }, actor, { deps }))).status).toBe(404);
    const published = await publishVersion(db, id, 1);
    expect(published.agent.publishedVersion).toBe(1);

    const res = await chat(db, id, { message: "What is for dinner?" }, actor, { deps, cacheTtlSeconds: 0 });
    expect(res.answer).toContain("Question: What is for dinner?");
    expect(res.cache).toBe("bypass");
    const trace = await getTrace(db, res.traceId);
    expect(trace).toMatchObject({
      source: "chat",
      mode: "pipeline_live",
      status: "succeeded",
      agentId: id,
      workflowVersionId: published.workflowVersionId,
      cache: "bypass",
      createdById: userId,
    });
    expect(trace.steps).toHaveLength(3);
  });

  it("publishing another version switches what chat runs", async () => {
    const id = await agentWith(minimal());
    const v2 = minimal();
    v2.nodes[2] = { id: "end", type: "end", config: { output: "v2: {{llm_1.result}}" }, position: { x: 2, y: 0 } };
    await addVersion(db, id, { workflow: v2 }, actor, {});
    await publishVersion(db, id, 1);
    expect((await chat(db, id, { message: "x" }, actor, { deps, cacheTtlSeconds: 0 })).answer).not.toMatch(/^v2:/);
    await publishVersion(db, id, 2);
    expect((await chat(db, id, { message: "x" }, actor, { deps, cacheTtlSeconds: 0 })).answer).toMatch(/^v2:/);
  });

  it("answers a repeated question from the cache: normalised text, per version, TTL, trace says hit and points at the original", async () => {
    const id = await agentWith(minimal());
    await publishVersion(db, id, 1);
    const first = await chat(db, id, { message: "  What is   for DINNER? " }, actor, { deps, cacheTtlSeconds: 600 });
    expect(first.cache).toBe("miss");
    const before = calls.length;
    const second = await chat(db, id, { message: "what is for dinner?" }, actor, { deps, cacheTtlSeconds: 600 });
    expect(second).toMatchObject({ cache: "hit", answer: first.answer });
    expect(second.traceId).not.toBe(first.traceId);
    expect(calls.length).toBe(before); // no model call
    const hit = await getTrace(db, second.traceId);
    expect(hit).toMatchObject({
      cache: "hit",
      cacheSourceTraceId: first.traceId,
      status: "succeeded",
      source: "chat",
      answer: first.answer,
    });
    expect((await getTrace(db, first.traceId)).cache).toBe("miss");
    const entry = await db.chatCacheEntry.findFirstOrThrow({ where: { traceId: first.traceId } });
    expect(entry).toMatchObject({ question: "what is for dinner?", hits: 1 });

    // another question, or other inputs, miss
    expect((await chat(db, id, { message: "what is for lunch?" }, actor, { deps, cacheTtlSeconds: 600 })).cache).toBe(
      "miss",
    );
    // expired entries are not used
    await db.chatCacheEntry.update({ where: { id: entry.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await chat(db, id, { message: "What is for dinner?" }, actor, { deps, cacheTtlSeconds: 600 })).cache).toBe(
      "miss",
    );
    // TTL 0 disables it
    expect((await chat(db, id, { message: "What is for dinner?" }, actor, { deps, cacheTtlSeconds: 0 })).cache).toBe(
      "bypass",
    );
  });

  it("a cached answer's trace stores the answer and payload redacted like the original's; the caller gets them whole", async () => {
    const w = minimal();
    w.nodes[2] = {
      id: "end",
      type: "end",
      config: { output: "use tok-{{start.query}}", payload: { token: "tok-{{start.query}}", scene: "dinner" } },
      position: { x: 2, y: 0 },
    } as (typeof w.nodes)[number];
    const id = await agentWith(w, "redacting agent");
    await publishVersion(db, id, 1);
    const first = await chat(db, id, { message: "tofu night" }, actor, { deps, cacheTtlSeconds: 600 });
    const second = await chat(db, id, { message: "tofu night" }, actor, { deps, cacheTtlSeconds: 600 });
    expect(second.cache).toBe("hit");
    for (const res of [first, second]) {
      expect(res).toMatchObject({
        answer: "use tok-tofu night",
        payload: { token: "tok-tofu night", scene: "dinner" },
      });
      const row = await db.trace.findUniqueOrThrow({ where: { id: res.traceId } });
      expect(row.answer).toBe("use [redacted]");
      expect(row.payload).toEqual({ token: "[redacted]", scene: "dinner" });
    }
  });

  it("sessions: earlier turns (by the same caller) become history and bypass the cache", async () => {
    const id = await agentWith(minimal());
    await publishVersion(db, id, 1);
    const a = await chat(db, id, { message: "I like tofu", sessionId: "s1" }, actor, { deps, cacheTtlSeconds: 600 });
    expect(a.cache).toBe("miss"); // no history yet
    const before = calls.length;
    const b = await chat(db, id, { message: "what do I like?", sessionId: "s1" }, actor, {
      deps,
      cacheTtlSeconds: 600,
    });
    expect(b.cache).toBe("bypass");
    expect(b.answer).toContain("Context: 2 earlier messages");
    expect(calls[before]).toEqual(["system", "user", "assistant", "user"]);
    // the same session id from another user does not see those turns
    const c = await chat(db, id, { message: "what do I like?", sessionId: "s1" }, otherActor, {
      deps,
      cacheTtlSeconds: 0,
    });
    expect(c.answer).not.toContain("earlier messages");
    expect((await getTrace(db, b.traceId)).sessionId).toBe("s1");
  });

  it("sessions of tokens without an owning user are keyed by the token: an admin token's turns never reach a viewer token", async () => {
    const id = await agentWith(minimal());
    await publishVersion(db, id, 1);
    const adminToken: Principal = { kind: "token", tokenId: "tok-admin", userId: null, role: "admin" };
    const viewerToken: Principal = { kind: "token", tokenId: "tok-viewer", userId: null, role: "viewer" };
    await chat(db, id, { message: "my secret is 42", sessionId: "shared" }, adminToken, { deps, cacheTtlSeconds: 0 });
    const before = calls.length;
    const v = await chat(db, id, { message: "what is the secret?", sessionId: "shared" }, viewerToken, {
      deps,
      cacheTtlSeconds: 0,
    });
    expect(v.answer).not.toContain("earlier messages");
    expect(calls[before]).toEqual(["system", "user"]);
    // the same token does keep its own conversation
    const again = await chat(db, id, { message: "and again?", sessionId: "shared" }, adminToken, {
      deps,
      cacheTtlSeconds: 0,
    });
    expect(again.answer).toContain("Context: 2 earlier messages");
    expect((await getTrace(db, again.traceId)).createdById).toBe("token:tok-admin");
  });

  it("a token is its own principal for chat history, whoever made it; a person's browser session is that person's (issue 28, item 1)", async () => {
    const id = await agentWith(minimal());
    await publishVersion(db, id, 1);
    // both tokens made by the same person (the builder `actor`), who also chats in the browser
    const builderToken: Principal = { kind: "token", tokenId: "tok-owned-b", userId, role: "builder" };
    const viewerToken: Principal = { kind: "token", tokenId: "tok-owned-v", userId, role: "viewer" };
    const opts = { deps, cacheTtlSeconds: 0 };
    await chat(db, id, { message: "builder secret message", sessionId: "s-owned" }, builderToken, opts);
    const before = calls.length;
    const viewer = await chat(db, id, { message: "what was said?", sessionId: "s-owned" }, viewerToken, opts);
    expect(viewer.answer).not.toContain("earlier messages");
    expect(calls[before]).toEqual(["system", "user"]);
    // nor does the person's browser session see the token's turns, or the token the person's
    const person = await chat(db, id, { message: "and in the browser?", sessionId: "s-owned" }, actor, opts);
    expect(person.answer).not.toContain("earlier messages");
    const next = await chat(
      db,
      id,
      { message: "and the builder token again", sessionId: "s-owned" },
      builderToken,
      opts,
    );
    expect(next.answer).toContain("Context: 2 earlier messages");
    const history = calls.at(-1)!;
    expect(history).toEqual(["system", "user", "assistant", "user"]);
    expect((await getTrace(db, next.traceId)).createdById).toBe("token:tok-owned-b");
    expect((await getTrace(db, person.traceId)).createdById).toBe(userId);
  });

  it("a failed run is an error naming the trace: 400 INPUT_REQUIRED, 502 RUN_FAILED", async () => {
    const id = await agentWith(minimal());
    await publishVersion(db, id, 1);
    const e = await apiError(chat(db, id, { input: {} }, actor, { deps }));
    expect(e).toMatchObject({ status: 400, code: "INPUT_REQUIRED" });
    expect(e.body().traceId).toEqual(expect.any(String));
    expect((await getTrace(db, e.body().traceId as string)).status).toBe("failed");

    const failing: RuntimeDeps = {
      ...deps,
      llm: {
        name: "broken",
        offline: false,
        chat: async () => Promise.reject(Object.assign(new Error("down"), { name: "x" })),
      },
    };
    const f = await apiError(chat(db, id, { message: "x" }, actor, { deps: failing, cacheTtlSeconds: 0 }));
    expect(f).toMatchObject({ status: 502, code: "RUN_FAILED" });
    expect(f.details[0]).toMatchObject({ code: "INTERNAL", nodeId: "llm_1" });
  });

  it("a cancelled request cancels the run", async () => {
    const id = await agentWith(minimal());
    await publishVersion(db, id, 1);
    const controller = new AbortController();
    const slow: RuntimeDeps = {
      ...deps,
      llm: {
        name: "slow",
        offline: false,
        chat: (req) =>
          new Promise((_, reject) => req.signal?.addEventListener("abort", () => reject(req.signal?.reason as Error))),
      },
    };
    setTimeout(() => controller.abort(), 50);
    const e = await apiError(
      chat(db, id, { message: "x" }, actor, { deps: slow, signal: controller.signal, cacheTtlSeconds: 0 }),
    );
    expect(e.details[0]).toMatchObject({ code: "CANCELLED" });
    expect((await getTrace(db, e.body().traceId as string)).status).toBe("cancelled");
  });
});

describe("cache key", () => {
  it("normalises with NFKC, lower-case and collapsed whitespace; other inputs are part of the key", () => {
    expect(normalizeQuestion("  ＷＨＡＴ\tis\n\n  ｆｏｒ dinner ")).toBe("what is for dinner");
    const w = minimal() as unknown as Workflow;
    expect(chatCacheKey(w, { query: "A b" })?.hash).toBe(chatCacheKey(w, { query: "a  B" })?.hash);
    expect(chatCacheKey(w, { query: "a b", scene: "x" })?.hash).not.toBe(chatCacheKey(w, { query: "a b" })?.hash);
    expect(chatCacheKey(w, { query: "a b", sessionId: "s" })?.hash).toBe(chatCacheKey(w, { query: "a b" })?.hash);
    expect(chatCacheKey(w, { query: "   " })).toBeNull();
  });
});

describe("feedback and trace queries", () => {
  it("records scores on online traces only, and filters traces by agent, source, status and score", async () => {
    const id = await agentWith(minimal());
    await publishVersion(db, id, 1);
    const good = await chat(db, id, { message: "good question" }, actor, { deps, cacheTtlSeconds: 0 });
    const bad = await chat(db, id, { message: "bad question" }, actor, { deps, cacheTtlSeconds: 0 });
    await addFeedback(db, good.traceId, { score: 5 }, actor);
    const fb = await addFeedback(db, bad.traceId, { score: 1, comment: "wrong dish" }, actor);
    expect(fb).toMatchObject({ traceId: bad.traceId, score: 1, comment: "wrong dish", createdById: userId });
    await addFeedback(db, bad.traceId, { score: 2 }, otherActor);

    const low = await listTraces(db, { agentId: id, maxScore: 2 });
    expect(low.items.map((t) => t.id)).toEqual([bad.traceId]);
    expect(low.items[0]?.feedbackSummary).toEqual({ count: 2, averageScore: 1.5, lastScore: 2 });
    expect((await listTraces(db, { agentId: id, minScore: 5 })).items.map((t) => t.id)).toEqual([good.traceId]);
    expect((await listTraces(db, { agentId: id, source: "chat", status: "succeeded" })).items).toHaveLength(2);
    expect((await listTraces(db, { agentId: id, source: "eval" })).items).toHaveLength(0);

    const page1 = await listTraces(db, { agentId: id, limit: 1 });
    expect(page1.nextCursor).toBe(page1.items[0]?.id);
    const page2 = await listTraces(db, { agentId: id, limit: 1, cursor: page1.nextCursor ?? undefined });
    expect(page2.items[0]?.id).not.toBe(page1.items[0]?.id);

    const detail = await getTrace(db, bad.traceId);
    expect(detail.feedback.map((f) => f.score)).toEqual([1, 2]);
    expect((await apiError(getTrace(db, "nope"))).status).toBe(404);
    expect((await apiError(addFeedback(db, "nope", { score: 3 }, actor))).status).toBe(404);
    await expect(addFeedback(db, good.traceId, { score: 6 }, actor)).rejects.toThrow();

    const run = await testRun(db, id, { input: { query: "x" } }, actor, { deps });
    expect((await apiError(addFeedback(db, run.id, { score: 1 }, actor))).code).toBe("TRACE_NOT_ONLINE");
  });
});

describe("test runs", () => {
  it("runs a draft (validated first: 400 with findings) or the latest version, returning the trace with steps", async () => {
    const id = await agentWith(minimal());
    const latest = await testRun(db, id, { message: "hello" }, actor, { deps });
    expect(latest).toMatchObject({ source: "test_run", mode: "pipeline", status: "succeeded" });
    expect(latest.workflowVersionId).toEqual(expect.any(String));
    expect(latest.steps.map((s) => s.nodeId)).toEqual(["start", "llm_1", "end"]);

    const draft = minimal();
    draft.nodes[2] = { id: "end", type: "end", config: { output: "draft {{llm_1.result}}" }, position: { x: 2, y: 0 } };
    const ran = await testRun(db, id, { workflow: draft, input: { query: "x" }, mode: "invoke" }, actor, { deps });
    expect(ran).toMatchObject({ mode: "invoke", workflowVersionId: null, status: "succeeded" });
    expect(ran.answer).toMatch(/^draft /);

    const invalid = minimal();
    (invalid.nodes[1] as { config: Record<string, unknown> }).config = {};
    const e = await apiError(testRun(db, id, { workflow: invalid, input: {} }, actor, { deps }));
    expect(e).toMatchObject({ status: 400, code: "WORKFLOW_INVALID" });
    expect(e.body().errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: "NODE_CONFIG_MISSING_REQUIRED", path: "/workflow/nodes/1/config" }),
      ]),
    );

    const failed = await testRun(db, id, { input: {} }, actor, { deps });
    expect(failed).toMatchObject({ status: "failed", error: { code: "INPUT_REQUIRED" } });
  });
});

describe("interrupted traces", () => {
  it("a trace a dead process left running becomes interrupted (with INTERRUPTED); younger ones on a server are left alone", async () => {
    const id = await agentWith(minimal());
    const base = { agentId: id, source: "test_run", mode: "pipeline" as const, input: {}, status: "running" as const };
    const old = await db.trace.create({ data: { ...base, startedAt: new Date(Date.now() - 10 * 60_000) } });
    const young = await db.trace.create({ data: { ...base, startedAt: new Date() } });
    const done = await db.trace.create({
      data: { ...base, status: "succeeded", startedAt: new Date(Date.now() - 10 * 60_000) },
    });

    // a database server: only traces older than the longest run (here 2 minutes + 1 minute) count
    expect(await markInterruptedTraces(db, staleRunningCutoff(120_000))).toBe(1);
    expect(await getTrace(db, old.id)).toMatchObject({ status: "interrupted", error: { code: "INTERRUPTED" } });
    expect((await getTrace(db, old.id)).finishedAt).toEqual(expect.any(String));
    expect((await getTrace(db, young.id)).status).toBe("running");
    expect((await getTrace(db, done.id)).status).toBe("succeeded");
    // the embedded database at start-up: every running trace is orphaned
    expect(await markInterruptedTraces(db, new Date(Date.now() + 1000))).toBe(1);
    expect((await getTrace(db, young.id)).status).toBe("interrupted");
    expect((await listTraces(db, { agentId: id, status: "interrupted" })).items.map((t) => t.id).sort()).toEqual(
      [old.id, young.id].sort(),
    );
  });
});
