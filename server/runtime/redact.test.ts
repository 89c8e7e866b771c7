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
});
