/** The webhooks' stable error codes (merged into server/http/error-codes.ts, rendered in /docs). */
export const WEBHOOK_ERROR_CODES: Record<string, { status: number; description: string }> = {
  WEBHOOK_URL_FORBIDDEN: {
    status: 400,
    description:
      "The webhook URL is refused by the same SSRF policy as http nodes; the message and details[0].rule name the rule (scheme, metadata_host, forbidden_address, origin_not_allowed, private_address_not_listed). Cloud metadata and link-local addresses are always refused; private or loopback addresses only for origins listed exactly in HTTP_ALLOWED_ORIGINS (or WEBHOOK_BASE_URL's).",
  },
  WEBHOOK_URL_INVALID: {
    status: 400,
    description: "The webhook URL starts like an http(s) URL but does not parse as one (a bad host or port).",
  },
  WEBHOOK_URL_UNRESOLVABLE: {
    status: 400,
    description: "The webhook URL's host name has no address (DNS), so the SSRF policy cannot check where it points.",
  },
  WEBHOOK_DISABLED: {
    status: 409,
    description:
      "The endpoint is disabled (by an admin, or by the server after failing for WEBHOOK_DISABLE_AFTER_SECONDS): enable it (PATCH `enabled: true`) before sending a test or a resend.",
  },
};
