import { isIPv4, isIPv6 } from "node:net";

/**
 * The address a request comes from, as the login throttle counts it (server/auth/throttle.ts). Route handlers do not
 * see the socket, so a front door (server/http/client-address.ts) writes it into this request header before Next
 * sees the request, replacing whatever the client sent under that name.
 */
export const CLIENT_ADDRESS_HEADER = "x-flowbench-client-address";

/** Expands an IPv6 address to its eight groups (no zone, no embedded IPv4), or null. */
function ipv6Groups(address: string): string[] | null {
  const [head, tail, more] = address.split("::");
  if (more !== undefined) return null;
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  if (tail === undefined && left.length !== 8) return null;
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return groups.length === 8 ? groups.map((g) => Number.parseInt(g || "0", 16).toString(16)) : null;
}

/**
 * One form per client: IPv4 as is (also when written IPv4-mapped, `::ffff:10.0.0.1`), IPv6 as its /64 network (one
 * host commonly holds a whole /64, so counting single IPv6 addresses would let it take a fresh one per attempt),
 * anything else as written (trimmed, at most 100 characters), an empty value as "unknown".
 */
export function normalizeClientAddress(raw: string | undefined | null): string {
  let a = (raw ?? "").trim();
  if (a.startsWith("[") && a.includes("]"))
    a = a.slice(1, a.indexOf("]")); // [v6]:port
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(":")); // v4:port
  if (/^::ffff:/i.test(a) && isIPv4(a.slice(7))) return a.slice(7);
  if (isIPv4(a)) return a;
  const plain = a.split("%")[0]!;
  if (isIPv6(plain)) {
    const groups = ipv6Groups(plain.toLowerCase());
    if (groups) return `${groups.slice(0, 4).join(":")}::/64`;
  }
  return a ? a.slice(0, 100) : "unknown";
}

/**
 * The client's address: the socket's peer, or, behind `trustedProxyHops` reverse proxies of your own
 * (`TRUSTED_PROXY_HOPS`), the `X-Forwarded-For` entry the outermost of them added (the hops-th from the right: entries
 * further left were written by the client and prove nothing). With 0 hops (the default) `X-Forwarded-For` is ignored,
 * since any client may send it; with fewer entries than hops, the leftmost one.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustedProxyHops: number,
): string {
  if (trustedProxyHops > 0 && forwardedFor !== undefined) {
    const entries = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor)
      .split(",")
      .map((e) => e.trim())
      .filter(Boolean);
    const entry = entries[Math.max(0, entries.length - trustedProxyHops)];
    if (entry) return normalizeClientAddress(entry);
  }
  return normalizeClientAddress(socketAddress);
}
