"use client";

/**
 * Renders a node's config form from `formModel(type)` (the contract) — the same component for all 8 types.
 * Each widget kind maps to one renderer in widgets/ (a file each); findings from the server are shown under their field.
 */
import { memo, useMemo, type ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import type { NodeType } from "@/server/workflow/contract";
import { REQUIRED_GROUP_KEY, type LocatedFinding } from "../model/findings";
import { completeExpression, completeTemplate, type TemplateOption } from "./completion";
import type { CompleteFn } from "./code-field";
import { formModel, groupLabel, unknownKeys, type FieldDescriptor } from "./form-model";
import {
  CelWidget,
  JsonWidget,
  KvWidget,
  NodeRefWidget,
  NumberWidget,
  PythonWidget,
  SelectWidget,
  StartOutputsWidget,
  TemplateWidget,
  TextWidget,
  type WidgetProps,
} from "./widgets";

export interface ConfigFormProps {
  nodeId: string;
  kind: NodeType;
  config: Record<string, unknown>;
  onChange: (key: string, value: unknown) => void;
  /** Findings for a config key (or REQUIRED_GROUP_KEY). */
  findings: (field: string) => LocatedFinding[];
  /** Upstream output fields offered by `{{` completion. */
  options: TemplateOption[];
  /** Targets of the node's outgoing edges (node-ref widgets). */
  targets: string[];
  readOnly?: boolean;
}

export function controlId(nodeId: string, key: string): string {
  return `cfg-${nodeId}-${key}`.replace(/[^A-Za-z0-9_-]/g, "_");
}

function renderWidget(field: FieldDescriptor, props: WidgetProps, targets: string[]): ReactNode {
  switch (field.widget) {
    case "text":
      return <TextWidget {...props} />;
    case "template":
    case "textarea-template":
      return <TemplateWidget {...props} />;
    case "number":
      return <NumberWidget {...props} />;
    case "select":
      return <SelectWidget {...props} />;
    case "kv":
      return <KvWidget {...props} />;
    case "json":
      return <JsonWidget {...props} />;
    case "python":
      return <PythonWidget {...props} />;
    case "cel":
      return <CelWidget {...props} />;
    case "start-outputs":
      return <StartOutputsWidget {...props} />;
    case "node-ref":
      return <NodeRefWidget {...props} targets={targets} />;
  }
}

function Field({
  nodeId,
  field,
  value,
  findings,
  onChange,
  readOnly,
  complete,
  targets,
  groupNote,
}: {
  nodeId: string;
  field: FieldDescriptor;
  value: unknown;
  findings: LocatedFinding[];
  onChange: (key: string, value: unknown) => void;
  readOnly: boolean;
  complete?: CompleteFn;
  targets: string[];
  groupNote?: string;
}) {
  const id = controlId(nodeId, field.key);
  const labelId = `${id}-label`;
  const helpId = `${id}-help`;
  const errId = `${id}-errors`;
  const invalid = findings.some((f) => f.severity === "error");
  const describedBy =
    [field.description ? helpId : "", findings.length ? errId : ""].filter(Boolean).join(" ") || undefined;
  const labelFor =
    field.widget === "kv" ||
    field.widget === "start-outputs" ||
    field.widget === "template" ||
    field.widget === "textarea-template" ||
    field.widget === "cel" ||
    field.widget === "python" ||
    field.widget === "json"
      ? undefined
      : id;
  const range =
    field.minimum !== undefined || field.maximum !== undefined
      ? `${field.minimum ?? "−∞"} – ${field.maximum ?? "∞"}${field.unit ? ` ${field.unit}` : ""}`
      : null;
  return (
    <div data-field={field.key} className="group/field">
      <div className="mb-1 flex items-baseline justify-between gap-2">
        <label id={labelId} htmlFor={labelFor} className="text-[13px] font-medium text-slate-800">
          {field.title}
          {field.required && !field.alternative && (
            <Badge tone="danger" size="caps" square className="ml-1.5 align-middle">
              Required
            </Badge>
          )}
        </label>
        <span className="shrink-0 font-mono text-[10.5px] text-slate-500">
          {field.key}
          {range && <span className="ml-1.5 font-sans">· {range}</span>}
        </span>
      </div>
      {renderWidget(
        field,
        {
          field,
          id,
          labelId,
          describedBy,
          invalid,
          value,
          onChange: (v) => onChange(field.key, v),
          readOnly,
          complete,
        },
        targets,
      )}
      {(field.description || groupNote) && (
        <p id={helpId} className="mt-1 text-xs leading-relaxed text-slate-500">
          {field.description}
          {groupNote && <span className="block text-slate-500">{groupNote}</span>}
        </p>
      )}
      {findings.length > 0 && (
        <ul id={errId} className="mt-1.5 space-y-1" data-testid={`field-findings-${field.key}`}>
          {findings.map((f) => (
            <li
              key={f.key}
              className={`flex gap-1.5 rounded-md px-2 py-1 text-xs ${f.severity === "error" ? "bg-red-50 text-red-700" : "bg-amber-50 text-amber-800"}`}
            >
              <span className="font-mono text-[10.5px] font-semibold opacity-80">{f.code}</span>
              <span>{f.message}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const MemoField = memo(Field);

function ConfigFormImpl({
  nodeId,
  kind,
  config,
  onChange,
  findings,
  options,
  targets,
  readOnly = false,
}: ConfigFormProps) {
  const model = formModel(kind);
  const templateComplete = useMemo<CompleteFn>(() => (text, pos) => completeTemplate(text, pos, options), [options]);
  const celComplete = useMemo<CompleteFn>(
    () => (text, pos, explicit) => completeExpression(text, pos, options, explicit),
    [options],
  );
  const extra = unknownKeys(kind, config);
  const primary = model.fields.filter((f) => !f.alternative || config[f.key] !== undefined);
  const folded = model.fields.filter((f) => f.alternative && config[f.key] === undefined);
  const groupFindings = findings(REQUIRED_GROUP_KEY);

  const render = (f: FieldDescriptor) => {
    const group = f.requiredGroup;
    const isGroupHead = model.requiredAnyOf.some((g) => g[0] === f.key);
    const fieldFindings = [...findings(f.key), ...(isGroupHead ? groupFindings : [])];
    return (
      <MemoField
        key={f.key}
        nodeId={nodeId}
        field={f}
        value={config[f.key]}
        findings={fieldFindings}
        onChange={onChange}
        readOnly={readOnly}
        complete={f.widget === "cel" ? celComplete : f.templates ? templateComplete : undefined}
        targets={targets}
        groupNote={group && isGroupHead ? `Required: at least one of ${groupLabel(model, group)}.` : undefined}
      />
    );
  };

  return (
    <div className="space-y-5" data-testid="config-form">
      {primary.map(render)}
      {folded.length > 0 && (
        <details className="group rounded-lg border border-dashed border-slate-200 px-3 py-2">
          <summary className="cursor-pointer select-none text-xs font-medium text-slate-500 hover:text-slate-700">
            Alternative keys ({folded.map((f) => f.key).join(", ")})
          </summary>
          <div className="mt-3 space-y-5">{folded.map(render)}</div>
        </details>
      )}
      {extra.length > 0 && (
        <div className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-xs text-amber-900">
          <p className="font-medium">Keys the {model.title} contract does not know (ignored at run time):</p>
          <ul className="mt-1.5 space-y-1">
            {extra.map((k) => (
              <li key={k} className="flex items-center justify-between gap-2">
                <code className="truncate">{k}</code>
                {!readOnly && (
                  <button
                    type="button"
                    className="font-medium text-amber-800 underline hover:text-amber-950"
                    onClick={() => onChange(k, undefined)}
                  >
                    Remove {k}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

export const ConfigForm = memo(ConfigFormImpl);
