import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client";
import type { FakeLlmServer } from "../../llm/testing";
import { abortWhen, createRunHarness, start, wf, type RunHarness, type WebhookServer } from "../testing";

let db: Db;
let close: () => Promise<void>;
let hook: WebhookServer;
let llm: FakeLlmServer;
let agentId: string;
let deps: RunHarness["deps"];
let run: RunHarness["run"];

beforeAll(async () => {
  ({ db, close, hook, llm, agentId, deps, run } = await createRunHarness());
}, 120_000);
afterAll(async () => close());

describe("the http node: tiers, credentials, SSRF, cancellation", () => {
  it("pipeline_live calls the owner's API; the end's payload keeps structured values of single {{refs}}", async () => {
    const w = wf(
      [
        start([{ name: "scene", type: "string", required: true }]),
        {
          id: "http_1",
          type: "http",
          config: { url: "/api/dishes", params: { scene: "{{start.scene}}" }, headers: { "x-api-key": "secret-key" } },
        },
        { id: "llm_1", type: "llm", config: { userPrompt: "Recommend one of {{http_1.result.dishes}}" } },
        {
          id: "end",
          type: "end",
          config: {
            output: "{{llm_1.result}}",
            payload: {
              goods_list: "{{http_1.result.dishes}}",
              count: "{{http_1.result.dishes.0.name}} and more",
              status: "{{http_1.status}}",
            },
          },
        },
      ],
      [
        ["start", "http_1"],
        ["http_1", "llm_1"],
        ["llm_1", "end"],
      ],
    );
    const before = hook.requests.length;
    const res = await run(w, { scene: "dinner" });
    expect(res.status).toBe("succeeded");
    expect(hook.requests.length).toBe(before + 1);
    expect(hook.requests.at(-1)?.path).toBe("/api/dishes?scene=dinner");
    expect(res.payload).toEqual({
      goods_list: [
        expect.objectContaining({ name: "Mapo tofu" }),
        expect.objectContaining({ name: "Kung pao chicken" }),
      ],
      count: "Mapo tofu and more",
      status: 200,
    });
    expect(res.answer).toContain("Items (2): Mapo tofu; Kung pao chicken");
    const httpStep = res.steps.find((s) => s.nodeId === "http_1");
    expect(httpStep?.output).toMatchObject({ status: 200, ok: true });
    expect(httpStep?.input).toMatchObject({
      method: "GET",
      url: `${hook.origin}/api/dishes?scene=dinner`,
      headers: { "x-api-key": "[redacted]" },
    });
    const trace = await db.trace.findUniqueOrThrow({ where: { id: res.traceId } });
    expect(trace.payload).toEqual(res.payload);
  });

  it("credentials reach the outgoing request but never the stored trace (headers, query, body, response)", async () => {
    const w = wf(
      [
        start([{ name: "who", type: "string", required: true }]),
        {
          id: "http_1",
          type: "http",
          config: {
            url: "/session?api_key={{start.who}}&page=2",
            method: "POST",
            params: { client_secret: "cs-1", scene: "dinner" },
            headers: {
              Authorization: "Bearer {{start.who}}",
              "X-Api-Key": "xk-1",
              Cookie: "sid=c-1",
              "X-Trace-Id": "t-1",
            },
            body: { password: "pw-1", keyword: "spicy", promptTokens: 5, nested: { refreshToken: "rt-1" } },
          },
        },
        {
          id: "end",
          type: "end",
          config: { output: "{{http_1.result.access_token}}|{{http_1.result.user.password}}" },
        },
      ],
      [
        ["start", "http_1"],
        ["http_1", "end"],
      ],
    );
    const res = await run(w, { who: "sk-live-123" });
    expect(res.status).toBe("succeeded");
    // the outgoing call carried every real value
    const seen = hook.requests.at(-1)!;
    expect(seen.headers.authorization).toBe("Bearer sk-live-123");
    expect(seen.headers["x-api-key"]).toBe("xk-1");
    expect(seen.headers.cookie).toBe("sid=c-1");
    expect(seen.path).toBe("/session?api_key=sk-live-123&page=2&client_secret=cs-1&scene=dinner");
    expect(JSON.parse(seen.body)).toEqual({
      password: "pw-1",
      keyword: "spicy",
      promptTokens: 5,
      nested: { refreshToken: "rt-1" },
    });
    // later nodes read the unredacted output
    expect(res.answer).toBe("tok-from-server|pw-from-server");
    // the stored http step (and the one in the answer) holds none of them; set-cookie is never kept at all
    const trace = await db.trace.findUniqueOrThrow({ where: { id: res.traceId } });
    const step = (
      trace.steps as Array<{ nodeId: string; input: Record<string, unknown>; output: Record<string, unknown> }>
    ).find((s) => s.nodeId === "http_1")!;
    for (const secret of [
      "sk-live-123",
      "xk-1",
      "sid=c-1",
      "cs-1",
      "pw-1",
      "rt-1",
      "tok-from-server",
      "hdr-from-server",
      "cookie-from-server",
      "pw-from-server",
    ]) {
      expect(JSON.stringify(step)).not.toContain(secret);
      expect(JSON.stringify(res.steps.find((s) => s.nodeId === "http_1"))).not.toContain(secret);
    }
    expect(step.input).toMatchObject({
      headers: { Authorization: "[redacted]", "X-Api-Key": "[redacted]", Cookie: "[redacted]", "X-Trace-Id": "t-1" },
      params: { client_secret: "[redacted]", scene: "dinner" },
      body: { password: "[redacted]", keyword: "spicy", promptTokens: 5, nested: { refreshToken: "[redacted]" } },
    });
    expect(step.input.url).toContain("page=2");
    expect(step.output).toMatchObject({
      result: { access_token: "[redacted]", user: { name: "ada", password: "[redacted]" }, count: 2 },
      headers: { "x-session-token": "[redacted]" },
    });
    expect(step.output.headers).not.toHaveProperty("set-cookie");

    // TRACE_REDACT=off stores the values as they are (a private debugging install)
    const plain = await run(w, { who: "sk-live-123" }, {}, deps({ redact: { enabled: false, extra: [] } }));
    expect(JSON.stringify(plain.steps.find((s) => s.nodeId === "http_1"))).toContain("Bearer sk-live-123");
    // TRACE_REDACT_NAMES adds names
    const extra = await run(w, { who: "sk-live-123" }, {}, deps({ redact: { enabled: true, extra: ["x-trace-id"] } }));
    expect(JSON.stringify(extra.steps)).not.toContain("t-1");
  });

  it("the stored answer and payload, bodies given as strings, unlisted credential names, query values and url path tokens are redacted too", async () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLXZhbA";
    const w = wf(
      [
        start([{ name: "who", type: "string", required: true }]),
        {
          id: "http_1",
          type: "http",
          config: {
            url: "/echo?sig=sigq-val-1&code=code-val-1&signature=sgq-val-1&access_token=atq-val-1&page=2",
            method: "POST",
            headers: {
              Authorization: "Bearer {{start.who}}",
              "x-api-key": "xk-echo-1",
              Authentication: "authn-val-1",
              "X-JWT": "jwt-hdr-val-1",
              "X-Passkey": "passkey-val-1",
              "X-Pin": "pin-val-123",
              "X-Sig": "sighdr-val-1",
              "content-type": "application/json",
            },
            body: '{"password":"pw-json-val-1","note":"ok"}',
          },
        },
        {
          id: "http_2",
          type: "http",
          config: {
            url: "/echo",
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: "user=ada&password=pw-form-val-1",
          },
        },
        { id: "http_3", type: "http", config: { url: `/reset-password/8f3a9c1b2d/${jwt}`, method: "GET" } },
        {
          id: "end",
          type: "end",
          config: {
            output: "{{http_1.result.headers}}",
            payload: { echoed: "{{http_1.result}}", form: "{{http_2.result.body}}", keep: "dinner" },
          },
        },
      ],
      [
        ["start", "http_1"],
        ["http_1", "http_2"],
        ["http_2", "http_3"],
        ["http_3", "end"],
      ],
    );
    const res = await run(w, { who: "sk-live-echo-1" });
    expect(res.status).toBe("succeeded");
    // the caller gets the answer and payload as they are
    expect(res.answer).toContain("Bearer sk-live-echo-1");
    expect(JSON.stringify(res.payload)).toContain("xk-echo-1");
    expect(res.payload).toMatchObject({ form: "user=ada&password=pw-form-val-1", keep: "dinner" });
    // the trace stores none of them: answer, payload, steps, input
    const trace = await db.trace.findUniqueOrThrow({ where: { id: res.traceId } });
    const stored = JSON.stringify(trace);
    for (const secret of [
      "sk-live-echo-1",
      "xk-echo-1",
      "authn-val-1",
      "jwt-hdr-val-1",
      "passkey-val-1",
      "pin-val-123",
      "sighdr-val-1",
      "pw-json-val-1",
      "pw-form-val-1",
      "sigq-val-1",
      "code-val-1",
      "sgq-val-1",
      "atq-val-1",
      "8f3a9c1b2d",
      jwt,
    ])
      expect(stored, secret).not.toContain(secret);
    // what is not a credential stays readable
    const steps = trace.steps as Array<{ nodeId: string; input: Record<string, unknown> }>;
    expect(steps.find((s) => s.nodeId === "http_1")!.input.body).toBe('{"password":"[redacted]","note":"ok"}');
    expect(steps.find((s) => s.nodeId === "http_2")!.input.body).toBe("user=ada&password=[redacted]");
    expect(String(steps.find((s) => s.nodeId === "http_1")!.input.url)).toContain("page=2");
    expect(String(steps.find((s) => s.nodeId === "http_3")!.input.url)).toContain(
      "/reset-password/[redacted]/[redacted]",
    );
    expect(trace.payload).toMatchObject({ form: "user=ada&password=[redacted]", keep: "dinner" });
    expect(trace.answer).toContain('"authorization":"[redacted]"');
    expect(res.steps.map((s) => s.status)).toEqual(["succeeded", "succeeded", "succeeded", "succeeded", "succeeded"]);
  });

  it("tiers: pipeline makes ZERO network requests (dry run), invoke skips http nodes, both recorded in the trace", async () => {
    const w = wf(
      [
        start(),
        { id: "http_1", type: "http", config: { url: "/api/dishes", method: "POST", body: { q: "{{start.query}}" } } },
        { id: "http_2", type: "http", config: { url: `${hook.origin}/health` } },
        { id: "llm_1", type: "llm", config: { userPrompt: "{{start.query}} {{http_1.result}} {{http_2.status}}" } },
        {
          id: "end",
          type: "end",
          config: {
            output: "{{llm_1.result}}",
            payload: { items: "{{http_1.result.items}}", dry: "{{http_1.result.dryRun}}" },
          },
        },
      ],
      [
        ["start", "http_1"],
        ["http_1", "http_2"],
        ["http_2", "llm_1"],
        ["llm_1", "end"],
      ],
    );
    const before = hook.requests.length;
    const dry = await run(w, { query: "q" }, { mode: "pipeline" });
    expect(hook.requests.length).toBe(before);
    expect(dry.status).toBe("succeeded");
    expect(dry.payload).toEqual({ items: [], dry: true });
    expect(dry.steps.find((s) => s.nodeId === "http_1")).toMatchObject({
      status: "succeeded",
      output: { status: 200, ok: true, result: { items: [], dryRun: true }, headers: {} },
    });
    expect(dry.steps.find((s) => s.nodeId === "http_1")?.input).toMatchObject({
      dryRun: true,
      method: "POST",
      body: { q: "q" },
    });

    // a dry run needs no configuration: without WEBHOOK_BASE_URL the relative url is only noted
    const unconfigured = await run(
      w,
      { query: "q" },
      { mode: "pipeline" },
      deps({ http: { policy: deps().http.policy } }),
    );
    expect(unconfigured.status).toBe("succeeded");
    expect(unconfigured.steps.find((s) => s.nodeId === "http_1")?.input).toMatchObject({
      url: "/api/dishes",
      note: expect.stringContaining("WEBHOOK_BASE_URL"),
    });
    expect(
      (await run(w, { query: "q" }, { mode: "pipeline_live" }, deps({ http: { policy: deps().http.policy } }))).error,
    ).toMatchObject({ code: "HTTP_BASE_URL_UNSET", nodeId: "http_1" });
    expect(hook.requests.length).toBe(before);

    const invoke = await run(w, { query: "q" }, { mode: "invoke" });
    expect(hook.requests.length).toBe(before);
    expect(invoke.status).toBe("succeeded");
    expect(invoke.steps.filter((s) => s.type === "http").map((s) => s.status)).toEqual(["skipped", "skipped"]);
    expect(invoke.steps.find((s) => s.nodeId === "llm_1")?.status).toBe("succeeded");

    const live = await run(w, { query: "q" }, { mode: "pipeline_live" });
    expect(live.status).toBe("succeeded");
    expect(hook.requests.length).toBe(before + 2);
    expect(JSON.parse(hook.requests.at(-2)?.body ?? "{}")).toEqual({ q: "q" });

    const modes = await db.trace.findMany({
      where: { id: { in: [dry.traceId, invoke.traceId, live.traceId] } },
      select: { mode: true },
    });
    expect(modes.map((m) => m.mode).sort()).toEqual(["invoke", "pipeline", "pipeline_live"]);
  });

  it("an SSRF attempt fails the http node with HTTP_FORBIDDEN_DESTINATION and the node id; the step shows the url", async () => {
    const w = wf(
      [
        start(),
        { id: "http_1", type: "http", config: { url: "http://169.254.169.254/latest/meta-data/{{start.query}}" } },
        { id: "end", type: "end", config: { output: "{{http_1.result}}" } },
      ],
      [
        ["start", "http_1"],
        ["http_1", "end"],
      ],
    );
    const res = await run(w, { query: "iam" }, {}, deps({}, "*"));
    expect(res).toMatchObject({ status: "failed", error: { code: "HTTP_FORBIDDEN_DESTINATION", nodeId: "http_1" } });
    const step = res.steps.find((s) => s.nodeId === "http_1");
    expect(step).toMatchObject({
      status: "failed",
      error: { code: "HTTP_FORBIDDEN_DESTINATION" },
      input: { url: "http://169.254.169.254/latest/meta-data/iam" },
    });
  });

  it("cancellation reaches an in-flight HTTP request", async () => {
    const w = wf(
      [
        start(),
        { id: "http_1", type: "http", config: { url: "/slow?ms=5000", timeout: 30_000 } },
        { id: "end", type: "end", config: { output: "{{http_1.status}}" } },
      ],
      [
        ["start", "http_1"],
        ["http_1", "end"],
      ],
    );
    const controller = new AbortController();
    const before = hook.requests.length;
    const arrived = abortWhen(controller, () => hook.requests.length > before);
    const res = await run(w, { query: "x" }, { signal: controller.signal });
    expect(Date.now() - (await arrived)).toBeLessThan(3000); // aborted, not the 5 s answer waited for
    expect(res).toMatchObject({ status: "cancelled", error: { code: "CANCELLED", nodeId: "http_1" } });
    expect(res.steps.find((s) => s.nodeId === "http_1")).toMatchObject({
      status: "failed",
      error: { code: "CANCELLED" },
      input: { url: `${hook.origin}/slow?ms=5000` },
    });
  });
});
