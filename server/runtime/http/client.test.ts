import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifyAddress } from "./address";
import { HTTP_LIMITS, checkDestination, defaultResolver, safeRequest, type HttpPolicy, type Resolver } from "./client";
import { allowedOriginsProblem, parseAllowedOrigins } from "../../core/origins";
import { matchOrigin, originRules } from "./policy";
import { startWebhookServer, type WebhookServer } from "../testing";
import type { RuntimeError } from "../errors";
import { parseEnv } from "../../core/env";

let hook: WebhookServer;
let other: WebhookServer;
beforeAll(async () => {
  hook = await startWebhookServer();
  other = await startWebhookServer();
});
afterAll(async () => {
  await hook.close();
  await other.close();
});

function policy(allowed: string | undefined, resolver: Resolver = defaultResolver, webhook = hook.origin): HttpPolicy {
  return { rules: originRules(webhook, allowed), resolver, ...HTTP_LIMITS };
}

async function failure(p: Promise<unknown>): Promise<RuntimeError> {
  try {
    await p;
  } catch (e) {
    return e as RuntimeError;
  }
  throw new Error("expected a failure");
}

const get = (url: string, p: HttpPolicy, extra: Partial<Parameters<typeof safeRequest>[0]> = {}) =>
  safeRequest({ method: "GET", url, headers: {}, timeoutMs: 5000, ...extra }, p);

describe("address classification", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["1.1.1.1", "public"],
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.32.0.1", "public"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["169.254.169.254", "forbidden"],
    ["169.254.170.2", "forbidden"],
    ["100.100.100.200", "forbidden"],
    ["0.0.0.0", "forbidden"],
    ["224.0.0.1", "forbidden"],
    ["255.255.255.255", "forbidden"],
    ["::1", "loopback"],
    ["::", "forbidden"],
    ["fe80::1", "forbidden"],
    ["fe80::1%eth0", "forbidden"],
    ["fd00:ec2::254", "forbidden"],
    ["fd12:3456::1", "private"],
    ["::ffff:169.254.169.254", "forbidden"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "forbidden"],
    ["2002:a9fe:a9fe::1", "forbidden"],
    ["[::1]", "loopback"],
    ["2606:4700:4700::1111", "public"],
    ["ff02::1", "forbidden"],
    ["example.com", null],
  ])("%s is %s", (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });
});

describe("allowed origins", () => {
  it("parses exact origins, subdomain wildcards and *", () => {
    const rules = parseAllowedOrigins("https://api.example.com, http://*.corp.example:8080 ,*");
    expect(rules).toEqual([
      { kind: "exact", origin: "https://api.example.com" },
      { kind: "wildcard", protocol: "http:", suffix: "corp.example", port: "8080" },
      { kind: "any" },
    ]);
    expect(matchOrigin(new URL("https://api.example.com/x"), rules)).toEqual({ allowed: true, explicit: true });
    expect(matchOrigin(new URL("http://a.corp.example:8080/"), rules)).toEqual({ allowed: true, explicit: false });
    expect(matchOrigin(new URL("https://x.test/"), parseAllowedOrigins("https://api.example.com"))).toEqual({
      allowed: false,
    });
  });
  it("rejects entries that are not origins (env validation)", () => {
    expect(allowedOriginsProblem("https://a.example/path")).toMatch(/origin only/);
    expect(allowedOriginsProblem("ftp://a.example")).toMatch(/http or https/);
    expect(allowedOriginsProblem("not a url")).toMatch(/not an origin/);
    expect(allowedOriginsProblem("https://a.example, http://b.example:81")).toBeNull();
    expect(() => parseEnv({ HTTP_ALLOWED_ORIGINS: "https://a.example/api" })).toThrow(/HTTP_ALLOWED_ORIGINS/);
    expect(parseEnv({ HTTP_ALLOWED_ORIGINS: "*" }).HTTP_ALLOWED_ORIGINS).toBe("*");
  });
});

describe("outbound requests", () => {
  it("calls WEBHOOK_BASE_URL's origin, parses JSON and exposes status and headers", async () => {
    const res = await get(`${hook.origin}/api/dishes?scene=dinner`, policy(undefined));
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain("application/json");
    expect(JSON.parse(res.body.toString()).dishes).toHaveLength(2);
  });

  it("refuses an origin that is not allowed", async () => {
    const e = await failure(get(`${other.origin}/health`, policy(undefined)));
    expect(e.code).toBe("HTTP_FORBIDDEN_DESTINATION");
    expect(e.message).toMatch(/not allowed/);
    expect(other.requests).toHaveLength(0);
  });

  it("ALWAYS refuses cloud metadata and link-local addresses, even when listed explicitly", async () => {
    const listed = policy("http://169.254.169.254,http://[fd00:ec2::254],http://metadata.google.internal,*");
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://[fd00:ec2::254]/",
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://[::ffff:169.254.169.254]/",
      "http://100.100.100.200/",
    ]) {
      const e = await failure(get(url, listed));
      expect(e.code, url).toBe("HTTP_FORBIDDEN_DESTINATION");
    }
  });

  it("refuses a private address that is not explicitly allowed (wildcard * covers public addresses only)", async () => {
    const e = await failure(get("http://10.0.0.7/internal", policy("*")));
    expect(e.code).toBe("HTTP_FORBIDDEN_DESTINATION");
    expect(e.message).toMatch(/private/);
  });

  it("refuses a DNS name resolving to loopback when loopback is not allowed (localhost, and a rebinding name)", async () => {
    const port = new URL(other.origin).port;
    const viaLocalhost = await failure(get(`http://localhost:${port}/health`, policy("*")));
    expect(viaLocalhost.code).toBe("HTTP_FORBIDDEN_DESTINATION");
    expect(viaLocalhost.message).toMatch(/loopback/);
    const rebinding: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];
    const viaName = await failure(get(`http://rebind.attacker.test:${port}/health`, policy("*", rebinding)));
    expect(viaName.code).toBe("HTTP_FORBIDDEN_DESTINATION");
    const metadataName: Resolver = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "169.254.169.254", family: 4 },
    ];
    expect((await failure(get("http://mixed.attacker.test/", policy("*", metadataName)))).code).toBe(
      "HTTP_FORBIDDEN_DESTINATION",
    );
    expect(other.requests).toHaveLength(0);
  });

  it("connects to the address it checked (a pinned lookup), so a name can be allowed explicitly", async () => {
    const port = new URL(other.origin).port;
    let lookups = 0;
    const resolver: Resolver = async () => {
      lookups++;
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const res = await get(
      `http://svc.internal.test:${port}/health`,
      policy(`http://svc.internal.test:${port}`, resolver),
    );
    expect(res.status).toBe(200);
    expect(lookups).toBe(1);
    expect(other.requests.at(-1)?.headers.host).toBe(`svc.internal.test:${port}`);
  });

  it("re-checks every redirect hop: a redirect to metadata or to a non-allowed origin is refused", async () => {
    const toMetadata = await failure(
      get(
        `${hook.origin}/redirect?to=${encodeURIComponent("http://169.254.169.254/latest/meta-data/")}`,
        policy(undefined),
      ),
    );
    expect(toMetadata.code).toBe("HTTP_FORBIDDEN_DESTINATION");
    const before = other.requests.length;
    const toOther = await failure(
      get(`${hook.origin}/redirect?to=${encodeURIComponent(`${other.origin}/health`)}`, policy(undefined)),
    );
    expect(toOther.code).toBe("HTTP_FORBIDDEN_DESTINATION");
    expect(other.requests.length).toBe(before);
  });

  it("follows allowed redirects (303 turns POST into GET; credentials dropped across origins)", async () => {
    const p = policy(other.origin);
    const res = await safeRequest(
      {
        method: "POST",
        url: `${hook.origin}/redirect?status=303&to=${encodeURIComponent(`${other.origin}/echo`)}`,
        headers: { authorization: "Bearer secret", "x-trace": "1" },
        body: "{}",
        timeoutMs: 5000,
      },
      p,
    );
    expect(res.redirects).toBe(1);
    const echoed = JSON.parse(res.body.toString());
    expect(echoed.method).toBe("GET");
    expect(echoed.headers.authorization).toBeUndefined();
    expect(echoed.headers["x-trace"]).toBe("1");
  });

  it("stops after 5 redirects", async () => {
    expect((await failure(get(`${hook.origin}/loop`, policy(undefined)))).code).toBe("HTTP_TOO_MANY_REDIRECTS");
  });

  it("caps the response size: declared, chunked and decompressed (gzip bomb)", async () => {
    const big = HTTP_LIMITS.maxResponseBytes + 10;
    for (const q of [`bytes=${big}`, `bytes=${big}&chunked=1`, `bytes=${20 * big}&gzip=1`]) {
      const e = await failure(get(`${hook.origin}/big?${q}`, policy(undefined)));
      expect(e.code, q).toBe("HTTP_RESPONSE_TOO_LARGE");
    }
    const ok = await get(`${hook.origin}/big?bytes=1000&gzip=1`, policy(undefined));
    expect(ok.body.length).toBe(1000);
  });

  it("times out with HTTP_TIMEOUT, and a caller's abort wins over it", async () => {
    const t = Date.now();
    expect((await failure(get(`${hook.origin}/slow?ms=3000`, policy(undefined), { timeoutMs: 200 }))).code).toBe(
      "HTTP_TIMEOUT",
    );
    expect(Date.now() - t).toBeLessThan(2000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 100);
    const e = await failure(get(`${hook.origin}/slow?ms=3000`, policy(undefined), { signal: controller.signal }));
    expect((e as unknown as Error).message).toBe("stop");
  });

  it("refuses non-http schemes before anything else", async () => {
    await expect(checkDestination(new URL("file:///etc/passwd"), policy("*"))).rejects.toMatchObject({
      code: "HTTP_FORBIDDEN_DESTINATION",
    });
  });
});
