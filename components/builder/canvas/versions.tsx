"use client";

import { useQuery } from "@tanstack/react-query";
import { Background, MiniMap, ReactFlow, ReactFlowProvider, type NodeTypes, type EdgeTypes } from "@xyflow/react";
import { useMemo, useState } from "react";
import { isNodeType } from "@/server/workflow/contract";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorState, LoadingRows, Spinner } from "@/components/ui/feedback";
import { ago, when } from "@/components/ui/time";
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

/** The saved versions, newest first, in a dialog: open one read-only (then restore it from the preview). */
export function VersionsPanel({
  open,
  agentId,
  current,
  onOpen,
  onClose,
}: {
  open: boolean;
  agentId: string;
  current: number | null;
  onOpen: (version: number) => void;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const versions = useQuery({
    ...trpc.builder.versions.list.queryOptions({ id: agentId }),
    enabled: open,
    select: (d) => d.items,
  });
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Version history"
      description="Every save is a version. Open one to see it read-only and restore it."
      size="sm"
      closeLabel="Close version history"
    >
      <div data-testid="versions-panel">
        {versions.isLoading && <LoadingRows rows={3} label="Loading versions" />}
        {versions.error && (
          <ErrorState
            error={versions.error}
            onRetry={() => versions.refetch()}
            title="The versions could not be loaded"
          />
        )}
        {versions.data && (
          <ul className="-mx-5 -my-4 divide-y divide-slate-100">
            {versions.data.map((v) => {
              const warnings = Array.isArray(v.warnings) ? v.warnings.length : 0;
              return (
                <li key={v.id} className="flex items-center gap-3 px-5 py-2.5">
                  <Badge tone={v.version === current ? "brand" : "neutral"} size="lg" square>
                    v{v.version}
                  </Badge>
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-[13px] font-medium text-slate-800">
                      {v.note || (v.version === 1 ? "First version" : `Version ${v.version}`)}
                    </p>
                    <p className="text-xs text-slate-500">
                      <span title={when(v.createdAt)}>{ago(v.createdAt)}</span>
                      {warnings > 0 && (
                        <span className="ml-1.5 text-amber-700">
                          · {warnings} warning{warnings === 1 ? "" : "s"}
                        </span>
                      )}
                      {v.version === current && <span className="ml-1.5 text-brand-700">· latest</span>}
                    </p>
                  </div>
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={() => onOpen(v.version)}
                    aria-label={`Open version ${v.version}`}
                  >
                    Open
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </Dialog>
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
            <Button size="sm" disabled={restoring} onClick={() => onRestore(parsed.workflow, version)}>
              {restoring ? "Restoring…" : "Restore as new version"}
            </Button>
          )}
          <Button size="sm" variant="secondary" onClick={onClose}>
            Back to editing
          </Button>
        </div>
      </div>
      <div className="flex min-h-0 flex-1">
        <div className="relative min-w-0 flex-1">
          {q.isLoading && (
            <div className="p-8">
              <Spinner label={`Loading version ${version}…`} showLabel />
            </div>
          )}
          {q.error && (
            <div className="p-8">
              <ErrorState
                error={q.error}
                onRetry={() => q.refetch()}
                title={`Version ${version} could not be loaded`}
              />
            </div>
          )}
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
                  <MiniMap
                    pannable
                    zoomable
                    ariaLabel="Version minimap"
                    nodeColor={(n) => kindStyle((n as WfNode).data.kind).hex}
                  />
                </ReactFlow>
              </ReactFlowProvider>
            </StoresContext.Provider>
          )}
        </div>
        {node && parsed?.ok && (
          <aside
            aria-label="Node settings (read-only)"
            className="w-[360px] shrink-0 overflow-y-auto border-l border-slate-200 bg-white p-5"
          >
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
