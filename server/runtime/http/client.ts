/**
 * The http node's outbound client: SSRF-checked, size-capped, with manual redirects.
 *
 * For every hop (the first request and each redirect, at most 5):
 * 1. the scheme must be http(s) and the host must not be a metadata host name;
 * 2. the origin must be allowed (policy.ts);
 * 3. the host is resolved here (or is an IP literal) and EVERY address is classified (address.ts): metadata,
 *    link-local and other forbidden ranges are always refused, private/loopback unless the origin is explicit;
 * 4. the connection goes to the checked address (a pinned `lookup`), so a second DNS answer (rebinding) cannot
 *    change where it goes; TLS still verifies the certificate against the host name.
 * Credentials (Authorization, Cookie) are dropped when a redirect changes origin.
 */
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import type { Readable } from "node:stream";
import { FORBIDDEN_HOSTNAMES, classifyAddress } from "./address";
import { describeRules, matchOrigin, type OriginRule } from "./policy";
import { RuntimeError, errorMessage } from "../errors";

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Resolves a host name to all its addresses. Tests replace it to simulate DNS answers. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const defaultResolver: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export type HttpPolicy = {
  rules: readonly OriginRule[];
  resolver: Resolver;
  /** Largest accepted response body after decompression. */
  maxResponseBytes: number;
  maxRedirects: number;
};

export const HTTP_LIMITS = { maxResponseBytes: 2 * 1024 * 1024, maxRedirects: 5 } as const;

export type SafeRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
};

export type SafeResponse = {
  status: number;
  /** Lower-case names; repeated headers joined with ", "; set-cookie left out. */
  headers: Record<string, string>;
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
  redirects: number;
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];
/** Headers the client sets itself. */
const MANAGED_HEADERS = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
]);

function forbidden(message: string): RuntimeError {
  return new RuntimeError("HTTP_FORBIDDEN_DESTINATION", message);
}

/** Checks one hop's destination and returns the address to connect to. */
export async function checkDestination(url: URL, policy: HttpPolicy): Promise<ResolvedAddress> {
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw forbidden(`Only http and https URLs may be called, not ${url.protocol}`);
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  if (FORBIDDEN_HOSTNAMES.has(host)) throw forbidden(`${host} is a cloud metadata host and is never called`);
  const literal = classifyAddress(host);
  if (literal === "forbidden")
    throw forbidden(`${host} is a metadata, link-local or reserved address and is never called`);
  const match = matchOrigin(url, policy.rules);
  if (!match.allowed)
    throw forbidden(
      `The origin ${url.origin} is not allowed (allowed: ${describeRules(policy.rules)}); add it to HTTP_ALLOWED_ORIGINS`,
    );

  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: host, family: host.includes(":") ? 6 : 4 }];
  else {
    try {
      addresses = await policy.resolver(host);
    } catch (e) {
      throw new RuntimeError("HTTP_DNS_FAILED", `Could not resolve ${host}: ${errorMessage(e)}`);
    }
    if (addresses.length === 0) throw new RuntimeError("HTTP_DNS_FAILED", `${host} has no address`);
  }
  for (const a of addresses) {
    const cls = classifyAddress(a.address);
    if (cls === null || cls === "forbidden")
      throw forbidden(
        `${host} resolves to ${a.address}, a metadata, link-local or reserved address; it is never called`,
      );
    if ((cls === "private" || cls === "loopback") && !match.explicit) {
      throw forbidden(
        `${host} resolves to the ${cls} address ${a.address}; list ${url.origin} exactly in HTTP_ALLOWED_ORIGINS to allow it`,
      );
    }
  }
  return addresses[0] as ResolvedAddress;
}

function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

function sendOnce(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  target: ResolvedAddress,
  signal: AbortSignal,
) {
  const lib = url.protocol === "https:" ? https : http;
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = lib.request(
      {
        protocol: url.protocol,
        host: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method,
        headers: body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) },
        auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
        lookup: pinnedLookup(target),
        agent: false,
        signal,
      },
      resolve,
    );
    req.on("error", reject);
    req.end(body);
  });
}

function responseHeaders(res: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined || name === "set-cookie") continue;
    out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

async function readBody(res: http.IncomingMessage, method: string, limit: number): Promise<Buffer> {
  if (method === "HEAD" || res.statusCode === 204 || res.statusCode === 304) {
    res.resume();
    return Buffer.alloc(0);
  }
  const declared = Number(res.headers["content-length"] ?? "NaN");
  const encoding = String(res.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  const tooLarge = () => new RuntimeError("HTTP_RESPONSE_TOO_LARGE", `The response body is larger than ${limit} bytes`);
  if (!encoding && Number.isFinite(declared) && declared > limit) {
    res.destroy();
    throw tooLarge();
  }
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : null;
  const chunks: Buffer[] = [];
  let size = 0;
  const sink = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      size += chunk.length;
      if (size > limit) throw tooLarge();
      chunks.push(chunk);
    }
  };
  try {
    if (decoder) await pipeline(res as Readable, decoder, sink);
    else await pipeline(res as Readable, sink);
  } catch (e) {
    // Stopping early may surface as the decoder's "premature close" rather than our own error.
    if (size > limit) throw tooLarge();
    throw e;
  }
  return Buffer.concat(chunks, size);
}

/** Makes the request under the policy; throws RuntimeError (HTTP_*) or, when `signal` aborts, its reason. */
export async function safeRequest(req: SafeRequest, policy: HttpPolicy): Promise<SafeResponse> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw new RuntimeError("HTTP_URL_INVALID", `"${req.url}" is not a valid URL`);
  }
  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new RuntimeError("HTTP_TIMEOUT", `No complete answer within ${req.timeoutMs} ms`)),
    req.timeoutMs,
  );
  const signal = req.signal ? AbortSignal.any([req.signal, timeout.signal]) : timeout.signal;
  let method = req.method.toUpperCase();
  let body = req.body;
  let headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (!MANAGED_HEADERS.has(k.toLowerCase())) headers[k.toLowerCase()] = v;
  headers["accept-encoding"] ??= "gzip, deflate, br";
  headers["user-agent"] ??= "flowbench-runtime";
  try {
    for (let hop = 0; ; hop++) {
      signal.throwIfAborted();
      const target = await checkDestination(url, policy);
      const res = await sendOnce(url, method, headers, body, target, signal);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECTS.has(status) && location) {
        res.resume();
        if (hop >= policy.maxRedirects)
          throw new RuntimeError(
            "HTTP_TOO_MANY_REDIRECTS",
            `More than ${policy.maxRedirects} redirects (last to ${location})`,
          );
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new RuntimeError("HTTP_REQUEST_FAILED", `The redirect target "${location}" is not a valid URL`);
        }
        if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
          if (method !== "HEAD") method = "GET";
          body = undefined;
          delete headers["content-type"];
        }
        if (next.origin !== url.origin)
          headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !CREDENTIAL_HEADERS.includes(k)));
        url = next;
        continue;
      }
      const data = await readBody(res, method, policy.maxResponseBytes);
      return { status, headers: responseHeaders(res), body: data, url: url.toString(), redirects: hop };
    }
  } catch (e) {
    if (timeout.signal.aborted && !req.signal?.aborted) throw timeout.signal.reason;
    if (req.signal?.aborted) throw req.signal.reason;
    if (e instanceof RuntimeError) throw e;
    throw new RuntimeError("HTTP_REQUEST_FAILED", `${method} ${url.origin}${url.pathname} failed: ${errorMessage(e)}`, {
      cause: e,
    });
  } finally {
    clearTimeout(timer);
  }
}
