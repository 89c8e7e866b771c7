import { env } from "../core/env";
import { checkDestination, defaultResolver, type HttpPolicy } from "../runtime/http/client";
import { originRules } from "../runtime/http/policy";
import { RuntimeError } from "../runtime/errors";
import { ApiError } from "../core/errors";

/**
 * Where webhooks may go: the http node's SSRF policy (server/runtime/http), applied as is (WEBHOOK_BASE_URL's origin
 * and HTTP_ALLOWED_ORIGINS; metadata and link-local addresses never), checked at registration and again, with the
 * connection pinned to the checked address, on every attempt. No redirects are followed (a 3xx is a failed attempt).
 */
export function webhookPolicy(): HttpPolicy {
  const e = env();
  return {
    rules: originRules(e.WEBHOOK_BASE_URL, e.HTTP_ALLOWED_ORIGINS),
    resolver: defaultResolver,
    maxResponseBytes: 64 * 1024,
    maxRedirects: 0,
  };
}

/** The policy's rule a refusal names (its message says it in words). */
function ruleOf(message: string): string {
  if (/^Only http and https/.test(message)) return "scheme";
  if (/cloud metadata host/.test(message)) return "metadata_host";
  if (/metadata, link-local or reserved/.test(message)) return "forbidden_address";
  if (/is not allowed \(allowed:/.test(message)) return "origin_not_allowed";
  if (/the (private|loopback) address/.test(message)) return "private_address_not_listed";
  return "policy";
}

/** 400 naming the rule when the policy refuses `url`. */
export async function checkWebhookUrl(url: string): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ApiError(400, "WEBHOOK_URL_INVALID", "The webhook URL is not a valid absolute URL");
  }
  try {
    await checkDestination(parsed, webhookPolicy());
  } catch (e) {
    if (e instanceof RuntimeError && e.code === "HTTP_FORBIDDEN_DESTINATION")
      throw new ApiError(400, "WEBHOOK_URL_FORBIDDEN", `The webhook URL is refused: ${e.message}`, [
        { rule: ruleOf(e.message) },
      ]);
    if (e instanceof RuntimeError && e.code === "HTTP_DNS_FAILED")
      throw new ApiError(400, "WEBHOOK_URL_UNRESOLVABLE", e.message);
    throw e;
  }
}
