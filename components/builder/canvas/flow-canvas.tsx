"use client";

/**
 * The drawing area: React Flow in controlled mode with the canvas' node and edge components, background, zoom
 * controls and minimap, a hint while it is empty, and the place where the canvas' toasts and overlays show.
 */
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  type EdgeTypes,
  type NodeTypes,
  type OnSelectionChangeParams,
} from "@xyflow/react";
import type { DragEvent, ReactNode, RefObject } from "react";
import { ToastViewport } from "@/components/ui/toast";
import type { WfEdge, WfNode } from "../model/workflow";
import { kindStyle } from "../node-kinds";
import { FlowEdge } from "./flow-edge";
import { FlowNode } from "./flow-node";
import type { Graph } from "./hooks/use-graph";

export const fitViewOptions = { padding: 0.2, maxZoom: 1 };
const nodeTypes: NodeTypes = { wf: FlowNode };
const edgeTypes: EdgeTypes = { wf: FlowEdge };
const proOptions = { hideAttribution: false };
// Stable arrays: React Flow re-subscribes its key listeners whenever these change identity.
const DELETE_KEYS = ["Backspace", "Delete"];
const MULTI_SELECT_KEYS = ["Meta", "Control"];
const minimapColor = (n: WfNode) => kindStyle(n.data.kind).hex;

export function FlowCanvas({
  graph,
  readOnly,
  wrapper,
  onDragOver,
  onDrop,
  onSelectionChange,
  children,
}: {
  graph: Graph;
  readOnly: boolean;
  wrapper: RefObject<HTMLDivElement | null>;
  onDragOver: (e: DragEvent) => void;
  onDrop: (e: DragEvent) => void;
  onSelectionChange: (p: OnSelectionChangeParams<WfNode, WfEdge>) => void;
  /** overlays: the version preview */
  children?: ReactNode;
}) {
  const { nodes, edges } = graph;
  return (
    <div ref={wrapper} className="relative min-h-0 flex-1" data-testid="canvas" onDragOver={onDragOver} onDrop={onDrop}>
      <ReactFlow<WfNode, WfEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={graph.onNodesChange}
        onEdgesChange={graph.onEdgesChange}
        onConnect={graph.onConnect}
        isValidConnection={graph.isValidConnection}
        onBeforeDelete={graph.onBeforeDelete}
        onNodeDragStart={graph.onDragStart}
        onNodeDragStop={graph.onDragStop}
        onSelectionDragStart={graph.onDragStart}
        onSelectionDragStop={graph.onDragStop}
        onSelectionChange={onSelectionChange}
        deleteKeyCode={readOnly ? null : DELETE_KEYS}
        multiSelectionKeyCode={MULTI_SELECT_KEYS}
        nodesConnectable={!readOnly}
        nodesDraggable={!readOnly}
        onlyRenderVisibleElements={nodes.length > 150}
        fitView={graph.initial.nodes.length > 0}
        fitViewOptions={fitViewOptions}
        minZoom={0.1}
        maxZoom={2}
        proOptions={proOptions}
        attributionPosition="bottom-center"
      >
        <Background gap={20} size={1.2} color="#cbd5e1" />
        <Controls showInteractive={false} position="bottom-left" />
        <MiniMap
          pannable
          zoomable
          position="bottom-right"
          ariaLabel="Minimap"
          nodeColor={minimapColor}
          nodeStrokeWidth={0}
          nodeBorderRadius={6}
          maskColor="rgba(241,245,249,0.7)"
          style={{ width: 168, height: 112 }}
        />
      </ReactFlow>
      {nodes.length === 0 && (
        <div className="pointer-events-none absolute inset-0 grid place-items-center">
          <div className="rounded-2xl border border-dashed border-slate-300 bg-white/80 px-8 py-6 text-center shadow-sm backdrop-blur">
            <div className="mx-auto grid h-10 w-10 place-items-center rounded-xl bg-emerald-500 text-white">
              {kindStyle("start").icon}
            </div>
            <p className="mt-3 text-sm font-semibold text-slate-800">Start with a Start node</p>
            <p className="mt-1 max-w-xs text-xs text-slate-500">
              Drag nodes from the palette on the left and connect their handles. Every edit is checked by the server as
              you go.
            </p>
          </div>
        </div>
      )}
      <ToastViewport className="absolute inset-x-0 bottom-14 z-10 items-center px-4" />
      {children}
    </div>
  );
}
