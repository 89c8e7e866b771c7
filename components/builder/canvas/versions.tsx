"use client";

import { useQuery } from "@tanstack/react-query";
import { Background, MiniMap, ReactFlow, ReactFlowProvider, type NodeTypes, type EdgeTypes } from "@xyflow/react";
import { useMemo, useState } from "react";
import { isNodeType } from "@/server/workflow/contract";
import { Spinner } from "@/components/ui/feedback";
import { ICONS, Icon } from "@/components/ui/icon";
import { useTRPC } from "@/lib/trpc";
import { ConfigForm } from "../config-form/config-form";
import { templateOptions } from "../config-form/completion";
import { sameNodeFindings } from "../model/findings";
import { normalizeWorkflow, toFlow, type SpecWorkflow, type WfNode } from "../model/workflow";
import { kindStyle, kindTitle } from "../node-kinds";
import { FlowEdge } from "./flow-edge";
import { FlowNode } from "./flow-node";
import { StoresContext, createStores } from "./stores";

function ago(value: string | Date): string {
  const ms = Date.now() - new Date(value).getTime();
  const m = Math.round(ms / 60000);
  if (m < 1) return "just now";
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  return new Date(value).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export function VersionsPanel({ agentId, current, onOpen, onClose }: { agentId: string; current: number | null; onOpen: (version: number) => void; onClose: () => void }) {
  const trpc = useTRPC();
  const versions = useQuery(trpc.builder.versions.list.queryOptions({ id: agentId }));
  return (
    <div role="dialog" aria-label="Version history" className="absolute right-3 top-14 z-40 w-80 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-xl" data-testid="versions-panel">
      <div className="flex items-center justify-between border-b border-slate-100 px-4 py-2.5">
        <h2 className="text-[13px] font-semibold">Version history</h2>
        <button type="button" onClick={onClose} aria-label="Close version history" className="grid h-7 w-7 place-items-center rounded-md text-slate-500 hover:bg-slate-100">
          <Icon d={ICONS.x} className="h-3.5 w-3.5" />
        </button>
      </div>
      <ul className="max-h-96 divide-y divide-slate-100 overflow-y-auto">
        {versions.isLoading && (
          <li className="px-4 py-6 text-center">
            <Spinner label="Loading…" showLabel />
          </li>
        )}
        {versions.error && <li className="px-4 py-6 text-center text-sm text-red-600">{versions.error.message}</li>}
        {versions.data?.map((v) => {
          const warnings = Array.isArray(v.warnings) ? v.warnings.length : 0;
          return (
            <li key={v.id} className="flex items-center gap-3 px-4 py-2.5">
              <span className={`grid h-8 w-8 shrink-0 place-items-center rounded-lg text-xs font-semibold ${v.version === current ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-700"}`}>v{v.version}</span>
              <div className="min-w-0 flex-1">
                <p className="truncate text-[13px] font-medium text-slate-800">{v.note || (v.version === 1 ? "First version" : `Version ${v.version}`)}</p>
                <p className="text-xs text-slate-500">
                  {ago(v.createdAt)}
                  {warnings > 0 && <span className="ml-1.5 text-amber-700">· {warnings} warning{warnings === 1 ? "" : "s"}</span>}
                  {v.version === current && <span className="ml-1.5 text-brand-700">· latest</span>}
                </p>
              </div>
              <button type="button" onClick={() => onOpen(v.version)} className="rounded-md border border-slate-200 px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50" aria-label={`Open version ${v.version}`}>
                Open
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

const nodeTypes: NodeTypes = { wf: FlowNode };
const edgeTypes: EdgeTypes = { wf: FlowEdge };

/** One saved version, read-only, over the canvas; can be restored as a new version. */
export function VersionPreview({
  agentId,
  version,
  canRestore,
  onRestore,
  onClose,
  restoring,
}: {
  agentId: string;
  version: number;
  canRestore: boolean;
  onRestore: (workflow: SpecWorkflow, version: number) => void;
  onClose: () => void;
  restoring: boolean;
}) {
  const trpc = useTRPC();
  const q = useQuery(trpc.builder.versions.get.queryOptions({ id: agentId, version }));
  const stores = useMemo(() => createStores(sameNodeFindings), []);
  const parsed = useMemo(() => (q.data ? normalizeWorkflow(q.data.workflow) : null), [q.data]);
  const flow = useMemo(() => (parsed?.ok ? toFlow(parsed.workflow) : null), [parsed]);
  const [selected, setSelected] = useState<string | null>(null);
  const node = flow?.nodes.find((n) => n.id === selected);
  return (
    <div className="absolute inset-0 z-30 flex flex-col bg-slate-50" data-testid="version-preview">
      <div className="flex items-center gap-3 border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900">
        <Icon d={ICONS.history} className="h-4 w-4" />
        <span>
          Viewing <strong>version {version}</strong> · read-only
        </span>
        <div className="ml-auto flex items-center gap-2">
          {canRestore && parsed?.ok && (
            <button
              type="button"
              disabled={restoring}
              onClick={() => onRestore(parsed.workflow, version)}
              className="rounded-lg bg-amber-600 px-3 py-1.5 text-xs font-semibold text-white shadow-sm hover:bg-amber-700 disabled:opacity-60"
            >
              {restoring ? "Restoring…" : "Restore as new version"}
            </button>
          )}
          <button type="button" onClick={onClose} className="rounded-lg border border-amber-300 bg-white px-3 py-1.5 text-xs font-medium text-amber-900 hover:bg-amber-100">
            Back to editing
          </button>
        </div>
      </div>
      <div className="flex min-h-0 flex-1">
        <div className="relative min-w-0 flex-1">
          {q.isLoading && <p className="p-8 text-sm text-slate-500">Loading version {version}…</p>}
          {q.error && <p className="p-8 text-sm text-red-600">{q.error.message}</p>}
          {flow && (
            <StoresContext.Provider value={stores}>
              <ReactFlowProvider>
                <ReactFlow<WfNode>
                  nodes={flow.nodes}
                  edges={flow.edges}
                  nodeTypes={nodeTypes}
                  edgeTypes={edgeTypes}
                  nodesDraggable={false}
                  nodesConnectable={false}
                  deleteKeyCode={null}
                  fitView
                  fitViewOptions={{ padding: 0.25, maxZoom: 1 }}
                  onNodeClick={(_, n) => setSelected(n.id)}
                  onPaneClick={() => setSelected(null)}
                  proOptions={{ hideAttribution: false }}
                  attributionPosition="bottom-left"
                >
                  <Background gap={20} size={1.2} color="#cbd5e1" />
                  <MiniMap pannable zoomable ariaLabel="Version minimap" nodeColor={(n) => kindStyle((n as WfNode).data.kind).hex} />
                </ReactFlow>
              </ReactFlowProvider>
            </StoresContext.Provider>
          )}
        </div>
        {node && parsed?.ok && (
          <aside aria-label="Node settings (read-only)" className="w-[360px] shrink-0 overflow-y-auto border-l border-slate-200 bg-white p-5">
            <h2 className="text-[15px] font-semibold">{kindTitle(node.data.kind)}</h2>
            <p className="mb-4 font-mono text-xs text-slate-500">{node.id}</p>
            {isNodeType(node.data.kind) && (
              <ConfigForm
                nodeId={`v${version}-${node.id}`}
                kind={node.data.kind}
                config={node.data.config}
                onChange={() => undefined}
                findings={() => []}
                options={templateOptions(parsed.workflow, node.id)}
                targets={[]}
                readOnly
              />
            )}
          </aside>
        )}
      </div>
    </div>
  );
}
