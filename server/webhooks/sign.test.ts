import { describe, expect, it } from "vitest";
import { attemptJobId, deliveryId, generateSecret, retryDelaySeconds, signature, signedHeaders } from "./sign";

describe("Standard Webhooks signing", () => {
  it("matches the convention's published test vector", () => {
    // the test vector of the Standard Webhooks reference libraries (github.com/standard-webhooks/standard-webhooks,
    // libraries' tests; also Svix's), recomputed with python3's hmac + base64 before being written here
    const sig = signature(
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      "msg_p5jXN8AQM9LWM0D4loKWxJek",
      1614265330,
      '{"test": 2432232314}',
    );
    expect(sig).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("secrets are whsec_ + base64 of 32 random bytes; headers carry id, unix seconds and the signature", () => {
    const a = generateSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), "base64")).toHaveLength(32);
    expect(generateSecret()).not.toBe(a);
    const h = signedHeaders(a, "msg_1", 1700000000, "{}");
    expect(h).toEqual({
      "content-type": "application/json",
      "webhook-id": "msg_1",
      "webhook-timestamp": "1700000000",
      "webhook-signature": signature(a, "msg_1", 1700000000, "{}"),
    });
    expect(deliveryId()).toMatch(/^msg_[A-Za-z0-9_-]{20}$/);
  });

  it("one stable job id per (delivery, attempt)", () => {
    expect(attemptJobId("msg_1", 0)).toBe(attemptJobId("msg_1", 0));
    expect(attemptJobId("msg_1", 1)).not.toBe(attemptJobId("msg_1", 0));
    expect(attemptJobId("msg_1", 0)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("the default schedule: first retry within a minute, doubling, about a day in all", () => {
    const day = 86_400;
    const delays: number[] = [];
    let elapsed = 0;
    for (let attempts = 1; ; attempts++) {
      const d = retryDelaySeconds(attempts, 30, day);
      if (elapsed + d > day) break;
      delays.push(d);
      elapsed += d;
    }
    expect(delays.slice(0, 4)).toEqual([30, 60, 120, 240]);
    expect(Math.max(...delays)).toBe(day / 5);
    expect(elapsed / 3600).toBeGreaterThan(20); // retried for most of the day
    expect(delays.length + 1).toBe(14); // the first attempt and 13 retries
  });
});
