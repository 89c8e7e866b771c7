import { createHash, createHmac, randomBytes } from "node:crypto";

/**
 * The Standard Webhooks signature (https://www.standardwebhooks.com): a secret `whsec_` + base64 of 32 random bytes;
 * each attempt carries `webhook-id` (the delivery's id, the same on every retry), `webhook-timestamp` (unix seconds
 * of the attempt) and `webhook-signature` = `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)) where the
 * key is the secret's bytes after `whsec_`, base64-decoded. Pure.
 */
export const SECRET_PREFIX = "whsec_";

export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

export function signedHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signature(secret, id, timestamp, body),
  };
}

/** A new delivery's id (`msg_` + 24 random base32-ish characters). */
export function deliveryId(): string {
  return `msg_${randomBytes(15).toString("base64url")}`;
}

/** A stable UUID per (delivery, attempt), so scheduling the same attempt twice inserts one job. */
export function attemptJobId(id: string, attempt: number): string {
  const h = createHash("sha256").update(`webhook:${id}:${attempt}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The wait before the attempt after `attempts` failed ones: base, then doubling (30 s, 1 min, 2 min, ... with the
 * default base), at most a fifth of the window (about 5 h with a day's window).
 */
export function retryDelaySeconds(attempts: number, baseSeconds: number, windowSeconds: number): number {
  return Math.min(baseSeconds * 2 ** Math.max(0, attempts - 1), windowSeconds / 5);
}
