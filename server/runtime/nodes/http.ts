import { renderTemplate, renderTemplatesDeep, type HttpConfig } from "../../workflow";
import { RuntimeError } from "../errors";
import { safeRequest } from "../http/client";
import type { NodeContext, NodeOutcome } from "./context";

/** What an http node returns in `pipeline` mode: no request is made. */
export const DRY_RUN_HTTP_OUTPUT = Object.freeze({
  status: 200,
  ok: true,
  result: Object.freeze({ items: [], dryRun: true }),
  headers: Object.freeze({}),
});
/** What an http node returns in `invoke` mode (the step is `skipped`). */
export const SKIPPED_HTTP_OUTPUT = Object.freeze({ status: 0, ok: false, result: null, headers: Object.freeze({}) });

/** Joins a relative url to WEBHOOK_BASE_URL (keeping the base's path) and adds the query parameters. */
export function resolveHttpUrl(
  rendered: string,
  webhookBaseUrl: string | undefined,
  params: Record<string, string>,
): URL {
  let url: URL;
  if (rendered.startsWith("/")) {
    if (!webhookBaseUrl)
      throw new RuntimeError("HTTP_BASE_URL_UNSET", `The url ${rendered} is relative but WEBHOOK_BASE_URL is not set`);
    url = new URL(webhookBaseUrl.replace(/\/+$/, "") + rendered);
  } else {
    try {
      url = new URL(rendered);
    } catch {
      throw new RuntimeError(
        "HTTP_URL_INVALID",
        `The url ${JSON.stringify(rendered.slice(0, 200))} is neither an absolute http(s) URL nor a path starting with /`,
      );
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new RuntimeError("HTTP_URL_INVALID", `Only http and https URLs may be called, not ${url.protocol}`);
  }
  for (const [k, v] of Object.entries(params)) url.searchParams.append(k, v);
  return url;
}

function parseResult(body: Buffer, contentType: string | undefined): unknown {
  const text = body.toString("utf8");
  if (contentType && /[/+]json\b/i.test(contentType) && text.trim()) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * http: renders url, headers, params and body from upstream outputs, then by mode: `pipeline_live` makes the request
 * through the SSRF-checked client; `pipeline` returns DRY_RUN_HTTP_OUTPUT without touching the network; `invoke`
 * skips the node with SKIPPED_HTTP_OUTPUT. A non-2xx answer is not an error: `ok` is false and `status` tells.
 */
export async function runHttp(ctx: NodeContext<HttpConfig>): Promise<NodeOutcome> {
  const { config, scope } = ctx;
  const method = config.method;
  const headers = Object.fromEntries(
    Object.entries(config.headers ?? {}).map(([k, v]) => [k, renderTemplate(v, scope)]),
  );
  const params = Object.fromEntries(
    Object.entries(config.params ?? {}).map(([k, v]) => [
      k,
      typeof v === "string" ? renderTemplate(v, scope) : String(v),
    ]),
  );
  const body =
    method === "GET" || method === "HEAD" || config.body === undefined
      ? undefined
      : renderTemplatesDeep(config.body, scope);
  const rendered = renderTemplate(config.url ?? "", scope).trim();
  const input = { method, url: rendered, headers: { ...headers }, params, body: body ?? null, timeout: config.timeout };

  ctx.noteInput(input);
  if (ctx.mode === "invoke") return { status: "skipped", input, output: { ...SKIPPED_HTTP_OUTPUT, headers: {} } };
  if (ctx.mode === "pipeline") {
    // A dry run depends on no configuration: a url that could not be resolved is noted, not an error.
    let url: string = rendered;
    let note: string | undefined;
    try {
      url = resolveHttpUrl(rendered, ctx.deps.http.webhookBaseUrl, params).toString();
    } catch (e) {
      note = e instanceof Error ? e.message : String(e);
    }
    return {
      status: "succeeded",
      input: { ...input, url, dryRun: true, ...(note ? { note } : {}) },
      output: { ...DRY_RUN_HTTP_OUTPUT, result: { items: [], dryRun: true }, headers: {} },
    };
  }
  const url = resolveHttpUrl(rendered, ctx.deps.http.webhookBaseUrl, params);
  const traced = { ...input, url: url.toString() };
  ctx.noteInput(traced);

  let payload: string | undefined;
  if (body !== undefined) {
    if (typeof body === "string") {
      payload = body;
      if (!Object.keys(headers).some((h) => h.toLowerCase() === "content-type"))
        headers["content-type"] = "text/plain; charset=utf-8";
    } else {
      payload = JSON.stringify(body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === "content-type"))
        headers["content-type"] = "application/json";
    }
  }
  const res = await safeRequest(
    { method, url: url.toString(), headers, body: payload, timeoutMs: config.timeout, signal: ctx.signal },
    ctx.deps.http.policy,
  );
  return {
    status: "succeeded",
    input: res.redirects ? { ...traced, finalUrl: res.url, redirects: res.redirects } : traced,
    output: {
      status: res.status,
      ok: res.status >= 200 && res.status < 300,
      headers: res.headers,
      result: parseResult(res.body, res.headers["content-type"]),
    },
  };
}
