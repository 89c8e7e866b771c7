"use client";

/**
 * Test run of the current canvas (saved or not) through `runtime.testRun`: inputs generated from the start
 * node's declared outputs, a mode, and per-node status/duration/output painted on the canvas.
 */
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Field, denseInputClass } from "@/components/ui/field";
import type { AppRouter } from "@/server/api/root";
import { useTRPCClient } from "@/lib/trpc";
import type { SpecWorkflow } from "../model/workflow";
import type { RunStep } from "./stores";

type Trace = inferRouterOutputs<AppRouter>["runtime"]["testRun"];

const MODES = [
  { value: "pipeline", label: "pipeline: HTTP calls dry-run (default)" },
  { value: "pipeline_live", label: "pipeline_live: real HTTP calls" },
  { value: "invoke", label: "invoke: LLM and code only, HTTP skipped" },
] as const;

type Declared = { name: string; type: string; required: boolean; default?: unknown; description?: string };

function declaredInputs(workflow: SpecWorkflow): Declared[] {
  const start = workflow.nodes.find((n) => n.type === "start");
  const outputs = Array.isArray(start?.config.outputs) ? (start.config.outputs as Record<string, unknown>[]) : [];
  return outputs
    .filter((o) => typeof o?.name === "string" && o.name !== "")
    .map((o) => ({
      name: o.name as string,
      type: typeof o.type === "string" ? o.type : "string",
      required: o.required === true,
      default: o.default,
      description: typeof o.description === "string" ? o.description : undefined,
    }));
}

function pretty(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

export function TestRunPanel({
  agentId,
  getWorkflow,
  hasErrors,
  onSteps,
}: {
  agentId: string | null;
  getWorkflow: () => SpecWorkflow;
  hasErrors: boolean;
  onSteps: (steps: Map<string, RunStep>) => void;
}) {
  const client = useTRPCClient();
  const inputs = declaredInputs(getWorkflow());
  const [values, setValues] = useState<Record<string, string>>({});
  const [mode, setMode] = useState<(typeof MODES)[number]["value"]>("pipeline");
  const [running, setRunning] = useState(false);
  const [trace, setTrace] = useState<Trace | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (!agentId) {
    return (
      <p className="p-5 text-sm text-slate-500">
        Save the agent once to test-run it. Test runs then use the canvas as it is, saved or not.
      </p>
    );
  }

  const run = async () => {
    setError(null);
    const input: Record<string, unknown> = {};
    for (const d of inputs) {
      const text = values[d.name];
      if (text === undefined || text === "") continue;
      if (d.type === "string") input[d.name] = text;
      else {
        try {
          input[d.name] = JSON.parse(text);
        } catch {
          setError(`Input ${d.name} must be a ${d.type} (JSON).`);
          return;
        }
      }
    }
    setRunning(true);
    onSteps(new Map(getWorkflow().nodes.map((n) => [n.id, { status: "running" } as RunStep])));
    try {
      const result = await client.runtime.testRun.mutate({
        id: agentId,
        body: { workflow: getWorkflow(), input, mode },
      });
      setTrace(result);
      onSteps(
        new Map(
          result.steps.map((s) => [s.nodeId, { status: s.status, durationMs: s.durationMs, error: s.error?.message }]),
        ),
      );
    } catch (e) {
      onSteps(new Map());
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setRunning(false);
    }
  };

  return (
    <div className="flex h-full flex-col" data-testid="test-run-panel">
      <form
        className="space-y-4 border-b border-slate-100 p-5"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        {inputs.length === 0 && <p className="text-xs text-slate-500">The start node declares no inputs.</p>}
        {inputs.map((d) => (
          <Field
            key={d.name}
            dense
            label={
              <>
                {d.name}
                {d.required && <span className="ml-1 text-red-600">*</span>}
              </>
            }
            aside={<span className="font-mono text-[10.5px] text-slate-500">{d.type}</span>}
          >
            {d.type === "string" ? (
              <textarea
                id={`run-input-${d.name}`}
                rows={2}
                className={denseInputClass}
                value={values[d.name] ?? ""}
                placeholder={typeof d.default === "string" && d.default ? d.default : d.description}
                onChange={(e) => setValues({ ...values, [d.name]: e.target.value })}
              />
            ) : (
              <input
                id={`run-input-${d.name}`}
                className={`${denseInputClass} font-mono text-xs`}
                value={values[d.name] ?? ""}
                placeholder={d.default !== undefined ? JSON.stringify(d.default) : d.type}
                onChange={(e) => setValues({ ...values, [d.name]: e.target.value })}
              />
            )}
          </Field>
        ))}
        <Field dense label="Mode">
          <select
            id="run-mode"
            className={denseInputClass}
            value={mode}
            onChange={(e) => setMode(e.target.value as typeof mode)}
          >
            {MODES.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </Field>
        <button
          type="submit"
          disabled={running || hasErrors}
          className="inline-flex w-full items-center justify-center gap-2 rounded-lg bg-slate-900 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-slate-800 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {running ? "Running…" : hasErrors ? "Fix the errors to run" : "Run test"}
        </button>
        {error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-xs text-red-700">
            {error}
          </p>
        )}
      </form>
      {trace && (
        <div className="flex-1 overflow-y-auto p-5" aria-live="polite">
          <div className="flex items-center gap-2">
            <Badge
              tone={trace.status === "succeeded" ? "success" : trace.status === "interrupted" ? "warning" : "danger"}
            >
              {trace.status}
            </Badge>
            {trace.durationMs !== null && (
              <span className="text-xs tabular-nums text-slate-500">{trace.durationMs} ms</span>
            )}
            <span className="ml-auto font-mono text-[10.5px] text-slate-500" title="Trace id">
              {trace.id.slice(0, 10)}
            </span>
          </div>
          {trace.answer !== null && (
            <div className="mt-3">
              <h3 className="text-[11px] font-semibold uppercase tracking-wider text-slate-500">Answer</h3>
              <p
                className={`mt-1 whitespace-pre-wrap rounded-lg bg-slate-50 p-3 text-[13px] ${trace.answer ? "text-slate-800" : "italic text-slate-500"}`}
              >
                {trace.answer || "Empty: the End node's output is not set, or rendered to nothing."}
              </p>
            </div>
          )}
          {trace.error && (
            <p className="mt-3 rounded-md bg-red-50 px-3 py-2 text-xs text-red-700">{trace.error.message}</p>
          )}
          <h3 className="mt-4 text-[11px] font-semibold uppercase tracking-wider text-slate-500">Steps</h3>
          <ol className="mt-1.5 space-y-1.5">
            {trace.steps.map((s, i) => (
              <li key={`${s.nodeId}-${i}`}>
                <details className="rounded-lg border border-slate-200">
                  <summary className="flex cursor-pointer items-center gap-2 px-3 py-1.5 text-xs">
                    <span
                      className={`h-2 w-2 rounded-full ${s.status === "succeeded" ? "bg-emerald-500" : s.status === "failed" ? "bg-red-500" : "bg-slate-300"}`}
                      aria-hidden="true"
                    />
                    <span className="font-mono text-slate-800">{s.nodeId}</span>
                    <span className="text-slate-500">{s.status}</span>
                    <span className="ml-auto tabular-nums text-slate-500">{Math.round(s.durationMs)} ms</span>
                  </summary>
                  <pre className="max-h-48 overflow-auto border-t border-slate-100 bg-slate-50 px-3 py-2 text-[11px] text-slate-700">
                    {s.error ? s.error.message : pretty(s.output)}
                  </pre>
                </details>
              </li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}
