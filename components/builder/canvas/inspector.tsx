"use client";

import { memo, useEffect, useState } from "react";
import { ICONS, Icon } from "@/components/ui/icon";
import { Kbd } from "@/components/ui/kbd";
import { NODE_CONTRACTS, isNodeType } from "@/server/workflow/contract";
import { isTemplateNodeId } from "@/server/workflow/templates";
import { ConfigForm } from "../config-form/config-form";
import type { TemplateOption } from "../config-form/completion";
import { fieldKey, type IndexedFindings, type LocatedFinding } from "../model/findings";
import type { WfNodeData } from "../model/workflow";
import { kindStyle, kindTitle } from "../node-kinds";

const ID_RE = /^[A-Za-z0-9_-]{1,128}$/;

function NodeIdField({
  id,
  taken,
  onRename,
  readOnly,
}: {
  id: string;
  taken: (id: string) => boolean;
  onRename: (to: string) => void;
  readOnly: boolean;
}) {
  const [text, setText] = useState(id);
  useEffect(() => setText(id), [id]);
  const problem =
    text === id
      ? null
      : !ID_RE.test(text)
        ? "Use letters, digits, _ and - (templates can only name such ids)."
        : taken(text)
          ? "Another node already has this id."
          : null;
  const commit = () => {
    if (text !== id && !problem) onRename(text);
    else setText(id);
  };
  return (
    <div>
      <label htmlFor="inspector-node-id" className="text-[11px] font-medium uppercase tracking-wide text-slate-500">
        Node id
      </label>
      <input
        id="inspector-node-id"
        value={text}
        disabled={readOnly}
        aria-invalid={!!problem || undefined}
        aria-describedby={problem ? "inspector-node-id-problem" : undefined}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter") commit();
          if (e.key === "Escape") setText(id);
        }}
        className="mt-0.5 block w-full rounded-md border border-transparent bg-transparent px-1.5 py-0.5 font-mono text-[13px] text-slate-800 hover:border-slate-200 focus:border-brand-500 focus:bg-white focus:outline-none disabled:hover:border-transparent aria-invalid:border-red-400"
      />
      {problem && (
        <p id="inspector-node-id-problem" className="mt-1 text-xs text-red-600">
          {problem}
        </p>
      )}
      {!problem && text === id && !isTemplateNodeId(id) && (
        <p className="mt-1 text-xs text-amber-700">Templates cannot refer to this id.</p>
      )}
    </div>
  );
}

function OutputsList({ id, kind, config }: { id: string; kind: string; config: Record<string, unknown> }) {
  const [copied, setCopied] = useState<string | null>(null);
  if (!isNodeType(kind)) return null;
  const outputs = NODE_CONTRACTS[kind].outputs(config);
  return (
    <section aria-labelledby="inspector-outputs" className="border-t border-slate-100 px-5 py-4">
      <h3 id="inspector-outputs" className="text-[11px] font-semibold uppercase tracking-wider text-slate-500">
        Outputs
      </h3>
      {outputs.length === 0 ? (
        <p className="mt-1.5 text-xs text-slate-500">This node exposes no fields yet.</p>
      ) : (
        <ul className="mt-2 flex flex-wrap gap-1.5">
          {outputs.map((f) => {
            const tpl = `{{${id}.${f}}}`;
            return (
              <li key={f}>
                <button
                  type="button"
                  title="Copy template"
                  aria-label={`Copy template ${tpl}`}
                  onClick={() => {
                    void navigator.clipboard?.writeText(tpl).then(
                      () => setCopied(f),
                      () => setCopied(null),
                    );
                  }}
                  className="rounded-md bg-slate-100 px-1.5 py-0.5 font-mono text-[11.5px] text-slate-700 hover:bg-brand-50 hover:text-brand-700"
                >
                  {copied === f ? "copied" : tpl}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export interface InspectorProps {
  nodeId: string;
  data: WfNodeData;
  findings: IndexedFindings;
  options: TemplateOption[];
  targets: string[];
  readOnly: boolean;
  onConfigChange: (nodeId: string, key: string, value: unknown) => void;
  onRename: (from: string, to: string) => void;
  isTaken: (id: string) => boolean;
  onDelete: (id: string) => void;
  onDuplicate: (id: string) => void;
}

function InspectorImpl({
  nodeId,
  data,
  findings,
  options,
  targets,
  readOnly,
  onConfigChange,
  onRename,
  isTaken,
  onDelete,
  onDuplicate,
}: InspectorProps) {
  const style = kindStyle(data.kind);
  const known = isNodeType(data.kind);
  const findingsFor = (field: string): LocatedFinding[] => findings.byField.get(fieldKey(nodeId, field)) ?? [];
  const nodeLevel = findings.all.filter((f) => f.node === nodeId && f.field === undefined);
  return (
    <div className="flex h-full flex-col" data-testid="inspector" data-node-id={nodeId}>
      <div className="border-b border-slate-100 px-5 pb-4 pt-4">
        <div className="flex items-start gap-3">
          <span className={`grid h-9 w-9 shrink-0 place-items-center rounded-xl ${style.tile}`}>{style.icon}</span>
          <div className="min-w-0 flex-1">
            <h2 className="text-[15px] font-semibold leading-tight text-slate-900">{kindTitle(data.kind)}</h2>
            <p className="mt-0.5 text-xs leading-snug text-slate-500">
              {known
                ? NODE_CONTRACTS[data.kind as keyof typeof NODE_CONTRACTS].description
                : "This type is not part of the contract; change or delete the node."}
            </p>
          </div>
        </div>
        <div className="mt-3">
          <NodeIdField id={nodeId} taken={isTaken} onRename={(to) => onRename(nodeId, to)} readOnly={readOnly} />
        </div>
        {nodeLevel.length > 0 && (
          <ul className="mt-3 space-y-1" aria-label="Node issues">
            {nodeLevel.map((f) => (
              <li
                key={f.key}
                className={`rounded-md px-2 py-1.5 text-xs ${f.severity === "error" ? "bg-red-50 text-red-700" : "bg-amber-50 text-amber-800"}`}
              >
                <span className="mr-1.5 font-mono text-[10.5px] font-semibold">{f.code}</span>
                {f.message}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="flex-1 overflow-y-auto">
        <div className="px-5 py-4">
          {known ? (
            <ConfigForm
              nodeId={nodeId}
              kind={data.kind as keyof typeof NODE_CONTRACTS}
              config={data.config}
              onChange={(key, value) => onConfigChange(nodeId, key, value)}
              findings={findingsFor}
              options={options}
              targets={targets}
              readOnly={readOnly}
            />
          ) : (
            <pre className="overflow-x-auto rounded-lg bg-slate-50 p-3 text-xs">
              {JSON.stringify(data.config, null, 2)}
            </pre>
          )}
        </div>
        <OutputsList id={nodeId} kind={data.kind} config={data.config} />
      </div>
      {!readOnly && (
        <div className="flex items-center gap-2 border-t border-slate-100 px-5 py-3">
          <button
            type="button"
            onClick={() => onDuplicate(nodeId)}
            className="inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-xs font-medium text-slate-600 hover:bg-slate-100"
          >
            <Icon d={ICONS.copy} className="h-3.5 w-3.5" /> Duplicate
          </button>
          <button
            type="button"
            onClick={() => onDelete(nodeId)}
            className="ml-auto inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-xs font-medium text-red-600 hover:bg-red-50"
          >
            <Icon d={ICONS.trash} className="h-3.5 w-3.5" /> Delete node
          </button>
        </div>
      )}
    </div>
  );
}

export const Inspector = memo(InspectorImpl);

export function EmptyInspector({
  nodes,
  edges,
  selectedCount,
  onDeleteSelected,
  readOnly,
}: {
  nodes: number;
  edges: number;
  selectedCount: number;
  onDeleteSelected: () => void;
  readOnly: boolean;
}) {
  if (selectedCount > 1) {
    return (
      <div className="p-5">
        <h2 className="text-[15px] font-semibold text-slate-900">{selectedCount} nodes selected</h2>
        <p className="mt-1 text-sm text-slate-500">Move them together, copy them (Ctrl+C) or delete them.</p>
        {!readOnly && (
          <button
            type="button"
            onClick={onDeleteSelected}
            className="mt-4 inline-flex items-center gap-1.5 rounded-lg border border-red-200 px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
          >
            <Icon d={ICONS.trash} className="h-3.5 w-3.5" /> Delete {selectedCount} nodes
          </button>
        )}
      </div>
    );
  }
  const keys: [string, string][] = [
    ["Delete / Backspace", "Delete selection"],
    ["Ctrl + C / V", "Copy / paste nodes"],
    ["Ctrl + Z", "Undo"],
    ["Ctrl + Shift + Z", "Redo"],
    ["Ctrl + S", "Save a version"],
    ["Shift + drag", "Select an area"],
    ["Arrow keys", "Move the focused node"],
  ];
  return (
    <div className="p-5">
      <h2 className="text-[15px] font-semibold text-slate-900">Workflow</h2>
      <p className="mt-1 text-sm text-slate-500">
        {nodes} node{nodes === 1 ? "" : "s"}, {edges} connection{edges === 1 ? "" : "s"}. Select a node to edit its
        settings.
      </p>
      <h3 className="mt-6 text-[11px] font-semibold uppercase tracking-wider text-slate-500">Keyboard</h3>
      <dl className="mt-2 space-y-1.5 text-xs">
        {keys.map(([k, v]) => (
          <div key={k} className="flex items-center justify-between gap-3">
            <dt className="text-slate-600">{v}</dt>
            <dd>
              <Kbd>{k}</Kbd>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
