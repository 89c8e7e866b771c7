"use client";

/**
 * From an issue to its place: picking a finding selects and centres its node and focuses the field it is about in
 * the side panel (retrying for a few frames while the panel renders), or selects and frames its edge.
 */
import { useReactFlow } from "@xyflow/react";
import { useCallback, useEffect, useState } from "react";
import { isNodeType } from "@/server/workflow/contract";
import { controlId } from "../../config-form/config-form";
import { formModel } from "../../config-form/form-model";
import { REQUIRED_GROUP_KEY, type LocatedFinding } from "../../model/findings";
import { NODE_HEIGHT, NODE_WIDTH, withSelection, type WfEdge, type WfNode } from "../../model/workflow";
import type { Graph } from "./use-graph";

export function useFindingFocus({
  graph,
  onInspect,
}: {
  graph: Pick<Graph, "nodesRef" | "edgesRef" | "setNodes" | "setEdges">;
  onInspect: () => void;
}) {
  const { nodesRef, edgesRef, setNodes, setEdges } = graph;
  const rf = useReactFlow<WfNode, WfEdge>();
  const [focusReq, setFocusReq] = useState<{ nodeId: string; field?: string; nonce: number } | null>(null);

  const pick = useCallback(
    (f: LocatedFinding) => {
      const id = f.node;
      if (id && nodesRef.current.some((n) => n.id === id)) {
        setNodes(withSelection(nodesRef.current, new Set([id])));
        const internal = rf.getInternalNode(id);
        const w = internal?.measured.width ?? NODE_WIDTH;
        const h = internal?.measured.height ?? NODE_HEIGHT;
        const p = internal?.internals.positionAbsolute ??
          nodesRef.current.find((n) => n.id === id)?.position ?? { x: 0, y: 0 };
        void rf.setCenter(p.x + w / 2, p.y + h / 2, { zoom: Math.max(rf.getZoom(), 0.9), duration: 300 });
        onInspect();
        setFocusReq({ nodeId: id, field: f.field, nonce: Date.now() });
      } else if (f.edge) {
        const edge = edgesRef.current.find((e) => e.id === f.edge);
        if (!edge) return;
        setEdges(withSelection(edgesRef.current, new Set([edge.id])));
        void rf.fitView({ nodes: [{ id: edge.source }, { id: edge.target }], padding: 0.5, duration: 300, maxZoom: 1 });
      }
    },
    [edgesRef, nodesRef, onInspect, rf, setEdges, setNodes],
  );

  useEffect(() => {
    if (!focusReq) return;
    let tries = 0;
    const attempt = () => {
      const node = nodesRef.current.find((n) => n.id === focusReq.nodeId);
      let field = focusReq.field;
      if ((field === undefined || field === REQUIRED_GROUP_KEY) && node && isNodeType(node.data.kind)) {
        field = formModel(node.data.kind).requiredAnyOf[0]?.[0] ?? formModel(node.data.kind).fields[0]?.key;
      }
      const root = document.querySelector(`[data-testid="inspector"][data-node-id="${CSS.escape(focusReq.nodeId)}"]`);
      const host = field ? root?.querySelector(`[data-field="${CSS.escape(field)}"]`) : null;
      const target =
        (host?.querySelector(".cm-content, input, select, textarea, button") as HTMLElement | null) ??
        (field ? document.getElementById(controlId(focusReq.nodeId, field)) : null);
      if (target) {
        host?.scrollIntoView({ block: "center", behavior: "smooth" });
        target.focus({ preventScroll: true });
      } else if (++tries < 10) requestAnimationFrame(attempt);
    };
    requestAnimationFrame(attempt);
  }, [focusReq, nodesRef]);

  return pick;
}
