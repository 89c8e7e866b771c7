"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { Badge } from "@/components/ui/badge";
import { Dialog } from "@/components/ui/dialog";
import { ErrorState, Spinner } from "@/components/ui/feedback";
import { ms, when } from "./format";
import { humanize } from "./payload-model";
import { PayloadView, ValueView } from "./payload-view";

/** The execution steps of one trace (node, type, status, duration, error): where an answer went wrong, for attribution. */
export function TraceSteps({ traceId }: { traceId: string }) {
  const trpc = useTRPC();
  const trace = useQuery({ ...trpc.runtime.traces.get.queryOptions({ id: traceId }), staleTime: 60_000 });
  const [open, setOpen] = useState<string | null>(null);
  if (trace.error) return <ErrorState error={trace.error} title="The trace could not be loaded" />;
  if (!trace.data) return <Spinner label="Loading the trace" />;
  const t = trace.data;
  return (
    <div className="space-y-2">
      <p className="text-xs text-slate-500">
        {t.mode.replace("_", " ")} · {t.status} · {ms(t.durationMs)} · {t.usage.promptTokens + t.usage.completionTokens}{" "}
        tokens · {when(t.startedAt)}
        {t.error ? ` · ${t.error.code}: ${t.error.message}` : ""}
      </p>
      {t.otelTraceId && (
        <p className="text-xs text-slate-500">
          OpenTelemetry trace{" "}
          <span
            className="select-all break-all font-mono text-slate-700"
            title="Search this trace id in your tracing backend"
          >
            {t.otelTraceId}
          </span>
        </p>
      )}
      <ol className="divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-200 bg-white text-sm">
        {t.steps.map((s, i) => {
          const key = `${s.nodeId}-${i}`;
          const expanded = open === key;
          return (
            <li key={key}>
              <button
                type="button"
                aria-expanded={expanded}
                onClick={() => setOpen(expanded ? null : key)}
                className="flex w-full items-center gap-3 px-3 py-2 text-left hover:bg-slate-50"
              >
                <span
                  className={`h-2 w-2 shrink-0 rounded-full ${s.status === "succeeded" ? "bg-emerald-500" : s.status === "failed" ? "bg-red-500" : "bg-slate-300"}`}
                  aria-hidden="true"
                />
                <span className="font-mono text-xs text-slate-800">{s.nodeId}</span>
                <Badge>{s.type}</Badge>
                <span className={`text-xs ${s.status === "failed" ? "font-medium text-red-700" : "text-slate-500"}`}>
                  {s.status}
                </span>
                <span className="ml-auto text-xs tabular-nums text-slate-500">{ms(s.durationMs)}</span>
              </button>
              {s.error && <p className="px-8 pb-2 text-xs text-red-700">{`${s.error.code}: ${s.error.message}`}</p>}
              {expanded && (
                <div className="grid gap-3 bg-slate-50 px-8 py-2 lg:grid-cols-2">
                  <StepValue title="Input" value={s.input} />
                  <StepValue title="Output" value={s.output} />
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** A step's input or output for people (nested values as lists and small tables), its raw JSON one click away. */
function StepValue({ title, value }: { title: string; value: unknown }) {
  if (value === null || value === undefined || (typeof value === "object" && !Object.keys(value).length)) {
    return (
      <div>
        <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h4>
        <p className="text-xs text-slate-500">none</p>
      </div>
    );
  }
  return <PayloadView title={title} payload={typeof value === "object" ? value : { value }} compact />;
}

/** A trace on demand (e.g. the online trace a sample came from). */
export function TraceButton({ traceId, label }: { traceId: string; label?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} className="font-mono text-xs text-brand-700 hover:underline">
        {label ?? `trace …${traceId.slice(-6)}`}
      </button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        size="xl"
        title="Trace"
        description={<span className="font-mono text-xs">{traceId}</span>}
      >
        {open && <TraceSummary traceId={traceId} />}
      </Dialog>
    </>
  );
}

function TraceSummary({ traceId }: { traceId: string }) {
  const trpc = useTRPC();
  const trace = useQuery({ ...trpc.runtime.traces.get.queryOptions({ id: traceId }), staleTime: 60_000 });
  if (!trace.data) return trace.error ? <ErrorState error={trace.error} /> : <Spinner />;
  const t = trace.data;
  const input = (t.input ?? {}) as Record<string, unknown>;
  return (
    <div className="space-y-4 text-sm">
      <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1">
        <dt className="text-slate-500">Source</dt>
        <dd>{t.source}</dd>
        <dt className="text-slate-500">Input</dt>
        <dd className="min-w-0">
          {Object.keys(input).length ? (
            <dl className="grid grid-cols-[minmax(5rem,auto)_1fr] gap-x-3 gap-y-1">
              {Object.entries(input).map(([k, v]) => (
                <div key={k} className="contents">
                  <dt className="text-slate-500">{humanize(k)}</dt>
                  <dd className="min-w-0 whitespace-pre-wrap break-words">
                    <ValueView value={v} />
                  </dd>
                </div>
              ))}
            </dl>
          ) : (
            "—"
          )}
        </dd>
        <dt className="text-slate-500">Answer</dt>
        <dd className="whitespace-pre-wrap">{t.answer ?? "—"}</dd>
        {t.feedback.length > 0 && (
          <>
            <dt className="text-slate-500">Feedback</dt>
            <dd>{t.feedback.map((f) => `${f.score}/5${f.comment ? ` “${f.comment}”` : ""}`).join(" · ")}</dd>
          </>
        )}
      </dl>
      {t.payload && <PayloadView payload={t.payload} />}
      <div>
        <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Execution steps</h4>
        <TraceSteps traceId={traceId} />
      </div>
    </div>
  );
}
