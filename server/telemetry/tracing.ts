import {
  type Attributes,
  context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
} from "@opentelemetry/api";

/**
 * The spans Flowbench records (OpenTelemetry), through the API only: this module never loads the SDK. While no
 * exporter is configured (`OTEL_EXPORTER_OTLP_ENDPOINT` unset, the default) `inSpan` calls its function and nothing
 * else, so the request path pays one property read; `otel.ts`, imported dynamically by start-up only when an endpoint
 * is set, registers the SDK and turns this on. The switch lives on globalThis: Next.js bundles a route's modules
 * apart from start-up's, and both halves must see it.
 *
 * Secrets never reach a span: callers pass identifiers, counts and route templates, never headers, tokens or request
 * bodies; prompt and answer text only when the operator opted in (`captureContent`,
 * OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true), and then as stored in Flowbench's own trace (redacted).
 */
type TracingState = { enabled: boolean; captureContent: boolean };

const KEY = Symbol.for("flowbench.tracing");
export type { Span };

/** The instrumentation scope of every Flowbench span. */
export const TRACER_NAME = "flowbench";

function state(): TracingState {
  const g = globalThis as typeof globalThis & { [KEY]?: TracingState };
  g[KEY] ??= { enabled: false, captureContent: false };
  return g[KEY];
}

/** Turns span recording on (otel.ts, once the SDK is registered) or off again (tests). */
export function setTracing(on: { enabled: boolean; captureContent?: boolean }): void {
  const s = state();
  s.enabled = on.enabled;
  s.captureContent = on.enabled && (on.captureContent ?? false);
}

/** Whether spans are recorded (an OTLP endpoint is configured). */
export function tracingEnabled(): boolean {
  return state().enabled;
}

/** Whether spans may carry prompt and answer text (the operator's opt-in; off by default). */
export function captureContent(): boolean {
  return state().captureContent;
}

export type SpanOptions = {
  /** "server": an incoming request (INTERNAL when Next.js's own request span is its parent) */
  kind?: "server" | "client" | "internal" | "consumer";
  attributes?: Attributes;
  /** a new trace, whatever is active (a queue job started by the worker's loop) */
  root?: boolean;
};

const KINDS = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  internal: SpanKind.INTERNAL,
  consumer: SpanKind.CONSUMER,
} as const;

/**
 * Runs `fn` inside a span named `name` (a child of the active span), ended when `fn` settles. A rejection sets the
 * span's status to ERROR with the error's stable code or class name (never its message, which may quote a URL or a
 * value) and is rethrown. With tracing off, `fn(undefined)` and nothing else.
 */
export function inSpan<T>(name: string, opts: SpanOptions, fn: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!state().enabled) return fn(undefined);
  const parent = opts.root ? ROOT_CONTEXT : context.active();
  // a request span inside Next.js's own (SERVER) request span is INTERNAL: one SERVER span per request, so a
  // backend that derives request rates from SERVER spans counts each request once
  const kind = opts.kind === "server" && trace.getSpan(parent) ? "internal" : (opts.kind ?? "internal");
  return trace
    .getTracer(TRACER_NAME)
    .startActiveSpan(name, { kind: KINDS[kind], attributes: opts.attributes }, parent, async (span) => {
      try {
        return await fn(span);
      } catch (e) {
        failSpan(span, errorType(e));
        throw e;
      } finally {
        span.end();
      }
    });
}

/** Marks a span failed with a stable error type (a code such as LLM_TIMEOUT, or a status such as 500). */
export function failSpan(span: Span | undefined, type: string): void {
  if (!span) return;
  span.setAttribute("error.type", type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/** A stable name for an error: its `code` when it has one (ApiError, RuntimeError, LlmError), else its class. */
export function errorType(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(code)) return code;
  return e instanceof Error ? e.constructor.name || "Error" : "unknown";
}

/**
 * The OpenTelemetry trace id of the active span when that trace is exported (sampled), for Flowbench's own trace to
 * store (`Trace.otelTraceId`); undefined with tracing off or outside a sampled span.
 */
export function currentOtelTraceId(): string | undefined {
  if (!state().enabled) return undefined;
  const sc = trace.getActiveSpan()?.spanContext();
  if (!sc || !(sc.traceFlags & TraceFlags.SAMPLED) || /^0+$/.test(sc.traceId)) return undefined;
  return sc.traceId;
}

/** Text for a content attribute (the opt-in): JSON of the value, at most `max` characters. */
export function contentAttribute(value: unknown, max = 8192): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : (JSON.stringify(value) ?? "null");
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}… [truncated, ${text.length} characters]` : text;
}
