import { describe, expect, it } from "vitest";
import { REDACTED, RunRedactor, isSecretName, redactDeep, redactPolicyFrom, redactText, redactUrl } from "./redact";

describe("trace redaction", () => {
  it("names that say they hold a credential, and only those", () => {
    for (const n of [
      "Authorization",
      "proxy-authorization",
      "Cookie",
      "set-cookie",
      "X-Api-Key",
      "apiKey",
      "api_key",
      "access_token",
      "refreshToken",
      "client_secret",
      "password",
      "X-Auth-Token",
      "aws.secret.key",
      "signature",
      "key",
      "AccessKeyId",
      "private-key",
      "sessionKey",
      "X-Key",
    ])
      expect(isSecretName(n), n).toBe(true);
    // structural names that merely contain such a word
    for (const n of [
      "promptTokens",
      "maxTokens",
      "keyword",
      "keys",
      "monkey",
      "author",
      "scene",
      "x-trace-id",
      "content-type",
      "tokens",
      "memory_key",
      "sort_key",
      "keyName",
      "primaryKey",
    ])
      expect(isSecretName(n), n).toBe(false);
  });

  it("the policy comes from the environment: off, and extra names or words", () => {
    expect(redactPolicyFrom({})).toEqual({ enabled: true, extra: [] });
    const p = redactPolicyFrom({ TRACE_REDACT: "on", TRACE_REDACT_NAMES: " x-tenant-signature , otp " });
    expect(p.extra).toEqual(["x-tenant-signature", "otp"]);
    expect(isSecretName("X-Tenant-Signature", p)).toBe(true);
    expect(isSecretName("user_otp", p)).toBe(true);
    const off = redactPolicyFrom({ TRACE_REDACT: "off" });
    expect(redactDeep({ password: "x" }, off)).toEqual({ password: "x" });
  });

  it("deep values, urls with credentials in the query or the userinfo; booleans, nulls and empties kept", () => {
    const on = redactPolicyFrom({});
    expect(redactDeep({ a: [{ token: "t" }], hasToken: true, password: null, apiKey: "", n: 1 }, on)).toEqual({
      a: [{ token: REDACTED }],
      hasToken: true,
      password: null,
      apiKey: "",
      n: 1,
    });
    expect(redactUrl("https://u:p@api.example.com/x?api_key=s&page=2", on)).toBe(
      `https://u:redacted@api.example.com/x?api_key=${encodeURIComponent(REDACTED)}&page=2`,
    );
    expect(redactUrl("/path?token=s", on)).toBe(`/path?token=${encodeURIComponent(REDACTED)}`);
    expect(redactUrl("/path?page=1", on)).toBe("/path?page=1");
    expect(redactDeep({ url: "/x?secret=1" }, on)).toEqual({ url: `/x?secret=${encodeURIComponent(REDACTED)}` });
  });
});

describe("one redaction for everything a run stores", () => {
  const on = redactPolicyFrom({});
  it("error messages lose credential query values of absolute and relative urls", () => {
    const none = new Set<string>();
    expect(redactText('The url "https://api.example.com/x?api_key=sk-1&page=2" failed', on, none)).toBe(
      `The url "https://api.example.com/x?api_key=${encodeURIComponent(REDACTED)}&page=2" failed`,
    );
    expect(redactText("More than 5 redirects (last to /next?token=abc&x=1)", on, none)).toBe(
      `More than 5 redirects (last to /next?token=${encodeURIComponent(REDACTED)}&x=1)`,
    );
    expect(redactText("a/b?c=1 and 3/4 are not urls", on, none)).toBe("a/b?c=1 and 3/4 are not urls");
  });

  it("RunRedactor: by name (structural fields and the message field kept), then every collected secret by value", () => {
    const r = new RunRedactor(on, "query");
    expect(r.input({ query: "my token is here", password: "hunter2-pw", api_key: "k" })).toEqual({
      query: "my token is here",
      password: REDACTED,
      api_key: REDACTED,
    });
    // a memory step's key is structural (a session id), its data is not
    expect(
      r.step("memory_save", {
        key: "s-1",
        agentId: "a",
        scope: "production",
        memoryType: "kv",
        data: { refresh_token: "rt-123456" },
      }),
    ).toEqual({
      key: "s-1",
      agentId: "a",
      scope: "production",
      memoryType: "kv",
      data: { refresh_token: REDACTED },
    });
    // the same "key" elsewhere is a credential's name (e.g. ?key= of many APIs)
    expect(r.step("code", { inputs: { key: "AIzaSecret" } })).toEqual({ inputs: { key: REDACTED } });
    expect(r.step("http", { headers: { Authorization: "Bearer sk-live-abcdef" } })).toEqual({
      headers: { Authorization: REDACTED },
    });
    // collected: hunter2-pw, rt-123456, AIzaSecret, "Bearer sk-live-abcdef" and sk-live-abcdef; "k" is too short to search for
    expect([...r.secrets].sort()).toEqual(
      ["AIzaSecret", "Bearer sk-live-abcdef", "hunter2-pw", "rt-123456", "sk-live-abcdef"].sort(),
    );
    expect(r.value({ userPrompt: "use sk-live-abcdef and hunter2-pw", n: 1, ok: true })).toEqual({
      userPrompt: `use ${REDACTED} and ${REDACTED}`,
      n: 1,
      ok: true,
    });
    expect(r.message("401 for token rt-123456")).toBe(`401 for token ${REDACTED}`);
    // off: nothing changes
    const off = new RunRedactor(redactPolicyFrom({ TRACE_REDACT: "off" }));
    expect(off.input({ password: "x" })).toEqual({ password: "x" });
  });

  it("issue 28: names outside the first list, query-only names, tokens in url paths, bodies given as strings", () => {
    const on = redactPolicyFrom({});
    for (const n of ["Authentication", "X-JWT", "X-Passkey", "X-Pin", "X-Sig", "otp", "user_pin"])
      expect(isSecretName(n), n).toBe(true);
    for (const n of ["code", "pinned", "signal", "designation", "topic", "spin"])
      expect(isSecretName(n), n).toBe(false);
    // an OAuth code is a credential in a url query only; other query names as before
    expect(redactUrl("https://x.example/cb?code=abc123xyz&sig=s1g-val&state=ok&page=2", on)).toBe(
      "https://x.example/cb?code=%5Bredacted%5D&sig=%5Bredacted%5D&state=ok&page=2",
    );
    // tokens in the path: JWTs, well-known prefixes, an opaque value after a credential-named segment
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl";
    const found = new Set<string>();
    expect(redactUrl(`https://x.example/files/${jwt}/view`, on, found)).toBe("https://x.example/files/[redacted]/view");
    expect(redactUrl("https://x.example/reset-password/8f3a9c1b2d", on, found)).toBe(
      "https://x.example/reset-password/[redacted]",
    );
    expect(redactUrl("https://x.example/v1/sk-proj-abcdefghijklmnop/models", on, found)).toBe(
      "https://x.example/v1/[redacted]/models",
    );
    expect([...found]).toEqual([jwt, "8f3a9c1b2d", "sk-proj-abcdefghijklmnop"]);
    // ids and words in paths stay: a trace id, an agent id, /auth/login, /token/refresh
    for (const url of [
      "https://x.example/api/traces/cmwyod6yq0005vq7drtp16d3p",
      "https://x.example/api/agents/abc123/chat",
      "https://x.example/auth/login",
      "https://x.example/token/refresh",
    ])
      expect(redactUrl(url, on), url).toBe(url);
    // a JSON or form body given as a string is redacted like the value it holds; other text is left alone
    const r = new RunRedactor(on);
    expect(r.step("http", { body: '{"password":"pw-json-1","note":"ok"}' })).toEqual({
      body: '{"password":"[redacted]","note":"ok"}',
    });
    expect(r.step("http", { body: "user=ada&password=pw-form-1&remember=1" })).toEqual({
      body: "user=ada&password=[redacted]&remember=1",
    });
    expect(r.output('[{"token":"tok-arr-1"}]')).toBe('[{"token":"[redacted]"}]');
    for (const text of ["a=b c", '{"note":"ok"}', "{not json", "x == y", "price=12"])
      expect(r.step("http", { body: text }), text).toEqual({ body: text });
    expect([...r.secrets].sort()).toEqual(["pw-form-1", "pw-json-1", "tok-arr-1"]);
    // urls in any stored text lose credential query values even when the run has found no secret yet
    const fresh = new RunRedactor(on);
    expect(fresh.value({ note: "see https://x.example/cb?access_token=at-123456&page=2" })).toEqual({
      note: "see https://x.example/cb?access_token=%5Bredacted%5D&page=2",
    });
  });

  it("issue 28: headers echoed as text, bearer tokens in text, credentials in a url fragment; prose kept", () => {
    const on = redactPolicyFrom({});
    const r = new RunRedactor(on);
    // an API that echoes its request headers as plain text (the trace's answer templated {{http_1.result}})
    const echoed = [
      "POST /echo HTTP/1.1",
      "authorization: Bearer sk-echo-text-1",
      "x-api-key: xk-text-12345",
      "X-Pin: 4321",
      "Cookie: sid=ck-text-999; theme=dark",
      "content-type: text/plain",
    ].join("\n");
    expect(r.output(echoed)).toBe(
      [
        "POST /echo HTTP/1.1",
        "authorization: [redacted]",
        "x-api-key: [redacted]",
        "X-Pin: [redacted]",
        "Cookie: [redacted]",
        "content-type: text/plain",
      ].join("\n"),
    );
    // a bearer token anywhere in text; its value is then replaced wherever else the run stored it
    expect(r.output({ note: "called with Bearer abc123def456ghi" })).toEqual({
      note: `called with Bearer ${REDACTED}`,
    });
    expect(r.value("the token abc123def456ghi again")).toBe(`the token ${REDACTED} again`);
    expect(r.secrets.has("sk-echo-text-1")).toBe(true);
    expect(r.secrets.has("xk-text-12345")).toBe(true);
    // an OAuth implicit grant's fragment
    expect(redactUrl("https://x.example/cb#access_token=frag-tok-1&state=ok", on)).toBe(
      "https://x.example/cb#access_token=%5Bredacted%5D&state=ok",
    );
    // a form value is also searched for as it was sent (percent-encoded)
    r.step("http", { body: "user=ada&password=p%40ss%2Bw0rd" });
    expect(r.value("raw body user=ada&password=p%40ss%2Bw0rd and decoded p@ss+w0rd")).toBe(
      `raw body user=ada&password=${REDACTED} and decoded ${REDACTED}`,
    );
    // prose with a credential's word before a colon is not a credential, nor is "Bearer" before a word
    for (const text of [
      "Password: at least 8 characters, one digit",
      "Token: see the settings page",
      "The Bearer instrument is a note",
    ])
      expect(r.output(text), text).toBe(text);
  });
});
