/**
 * Classifies IP addresses for the http node's destination check. Pure, no I/O.
 *
 * - `forbidden`: never contacted, whatever the configuration says: cloud metadata endpoints, link-local
 *   (169.254.0.0/16, fe80::/10), unspecified, multicast, broadcast and reserved ranges.
 * - `loopback` and `private`: contacted only when the origin is listed explicitly (WEBHOOK_BASE_URL or an exact
 *   HTTP_ALLOWED_ORIGINS entry), never through a wildcard.
 * - `public`: everything else.
 *
 * IPv4 addresses embedded in IPv6 (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96 and 6to4
 * 2002::/16) are classified as the IPv4 address they carry.
 */
import net from "node:net";

export type AddressClass = "public" | "private" | "loopback" | "forbidden";

/** Metadata services outside the link-local range (Alibaba Cloud's 100.100.100.200, AWS' IPv6 fd00:ec2::254). */
const METADATA_V4 = new Set(["100.100.100.200"]);

function classifyV4(a: number, b: number, c: number, d: number): AddressClass {
  if (METADATA_V4.has(`${a}.${b}.${c}.${d}`)) return "forbidden";
  if (a === 0) return "forbidden"; // "this network"; 0.0.0.0 reaches the local host
  if (a === 127) return "loopback";
  if (a === 169 && b === 254) return "forbidden"; // link-local, incl. 169.254.169.254 (AWS, GCP, Azure, OCI metadata)
  if (a >= 224) return "forbidden"; // multicast 224/4, reserved 240/4, broadcast
  if (a === 10) return "private";
  if (a === 172 && b >= 16 && b <= 31) return "private";
  if (a === 192 && b === 168) return "private";
  if (a === 100 && b >= 64 && b <= 127) return "private"; // carrier-grade NAT
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return "private"; // IETF assignments, documentation
  if (a === 198 && (b === 18 || b === 19)) return "private"; // benchmarking
  if (a === 198 && b === 51 && c === 100) return "private"; // documentation
  if (a === 203 && b === 0 && c === 113) return "private"; // documentation
  return "public";
}

function parseV4(text: string): [number, number, number, number] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const out = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  if (out.some((n) => !(n >= 0 && n <= 255))) return null;
  return out as [number, number, number, number];
}

/** The 8 hextets of an IPv6 address (zone id ignored), or null. */
export function parseV6(text: string): number[] | null {
  let s = text;
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (net.isIPv6(s) === false) return null;
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(":");
  const maybeV4 = s.slice(lastColon + 1);
  if (maybeV4.includes(".")) {
    const v4 = parseV4(maybeV4);
    if (!v4) return null;
    tail = [(v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]];
    s = `${s.slice(0, lastColon + 1)}0:0`; // placeholder hextets, replaced below
  }
  const [head = "", rest] = s.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((h) => parseInt(h, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const fill = rest === undefined ? 0 : 8 - left.length - right.length;
  const words = [...left, ...new Array<number>(fill).fill(0), ...right];
  if (words.length !== 8 || words.some((w) => !(w >= 0 && w <= 0xffff))) return null;
  if (tail.length) words.splice(6, 2, ...tail);
  return words;
}

function classifyV6(w: number[]): AddressClass {
  const [w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0, w6 = 0, w7 = 0] = w;
  const v4 = (hi: number, lo: number) => classifyV4(hi >> 8, hi & 0xff, lo >> 8, lo & 0xff);
  const zeroTo = (n: number) => w.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return "forbidden"; // ::
  if (zeroTo(7) && w7 === 1) return "loopback"; // ::1
  if (zeroTo(5) && w5 === 0xffff) return v4(w6, w7); // ::ffff:a.b.c.d
  if (zeroTo(6)) return v4(w6, w7); // ::a.b.c.d (deprecated IPv4-compatible)
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0) return v4(w6, w7); // NAT64
  if (w0 === 0x2002) return v4(w1, w2); // 6to4
  if (w0 === 0xfd00 && w1 === 0x0ec2 && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0 && w6 === 0 && w7 === 0x254)
    return "forbidden"; // AWS metadata
  if ((w0 & 0xffc0) === 0xfe80) return "forbidden"; // link-local
  if ((w0 & 0xff00) === 0xff00) return "forbidden"; // multicast
  if ((w0 & 0xffc0) === 0xfec0) return "private"; // site-local (deprecated)
  if ((w0 & 0xfe00) === 0xfc00) return "private"; // unique local fc00::/7
  if (w0 === 0x2001 && w1 === 0x0db8) return "private"; // documentation
  return "public";
}

/** Class of an IP address literal, or null when `ip` is not one. Accepts IPv6 with or without brackets. */
export function classifyAddress(ip: string): AddressClass | null {
  const text = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const v4 = net.isIPv4(text) ? parseV4(text) : null;
  if (v4) return classifyV4(...v4);
  const v6 = parseV6(text);
  return v6 ? classifyV6(v6) : null;
}

/** Host names that are never contacted, whatever they resolve to. */
export const FORBIDDEN_HOSTNAMES: ReadonlySet<string> = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.azure.internal",
]);
