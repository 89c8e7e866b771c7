"use client";

/**
 * Editing operations on the graph, each one undoable step: add a node (palette click, drop), change a config field
 * (condition branches follow trueTarget/falseTarget), rename, delete, duplicate, copy/paste and auto-layout.
 * Every callback is stable: it reads the graph through its refs.
 */
import { useReactFlow } from "@xyflow/react";
import { useCallback, useRef, type DragEvent, type RefObject } from "react";
import { isNodeType, type NodeType } from "@/server/workflow/contract";
import { freeSpot, layoutPositions } from "../../model/layout";
import {
  NODE_HEIGHT,
  NODE_WIDTH,
  branchOf,
  copySelection,
  flowLookup,
  freshNodeId,
  initialConfig,
  pasteClipboard,
  renameNode,
  toFlowEdge,
  toFlowNode,
  withSelection,
  type Clipboard,
  type WfEdge,
  type WfNode,
} from "../../model/workflow";
import { fitViewOptions } from "../flow-canvas";
import { DRAG_MIME } from "../palette";
import type { Graph } from "./use-graph";
import type { CanvasToast } from "./use-canvas-toast";

const NONE: ReadonlySet<string> = new Set();

export function useGraphEdits({
  graph,
  readOnly,
  wrapper,
  toast,
  onAdded,
  onRenamed,
}: {
  graph: Pick<Graph, "nodesRef" | "edgesRef" | "apply">;
  readOnly: boolean;
  /** the canvas element: "add" from the palette places the node at its centre */
  wrapper: RefObject<HTMLDivElement | null>;
  toast: CanvasToast;
  /** a node was added (and selected): show its settings */
  onAdded: () => void;
  onRenamed: (from: string, to: string) => void;
}) {
  const { nodesRef, edgesRef, apply } = graph;
  const rf = useReactFlow<WfNode, WfEdge>();
  const clipboard = useRef<Clipboard | null>(null);
  const pasteCount = useRef(0);

  const addNode = useCallback(
    (kind: NodeType, position: { x: number; y: number }) => {
      if (readOnly) return;
      const taken = new Set(nodesRef.current.map((n) => n.id));
      const id = freshNodeId(kind, taken);
      const node: WfNode = { ...toFlowNode({ id, type: kind, config: initialConfig(kind), position }), selected: true };
      apply({ nodes: [...withSelection(nodesRef.current, NONE), node], edges: withSelection(edgesRef.current, NONE) });
      onAdded();
    },
    [apply, edgesRef, nodesRef, onAdded, readOnly],
  );

  const addAtCentre = useCallback(
    (kind: NodeType) => {
      const rect = wrapper.current?.getBoundingClientRect();
      if (!rect) return;
      const c = rf.screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });
      addNode(
        kind,
        freeSpot({ x: Math.round(c.x - NODE_WIDTH / 2), y: Math.round(c.y - NODE_HEIGHT / 2) }, nodesRef.current),
      );
    },
    [addNode, nodesRef, rf, wrapper],
  );

  const onDragOver = useCallback((e: DragEvent) => {
    if (e.dataTransfer.types.includes(DRAG_MIME)) {
      e.preventDefault();
      e.dataTransfer.dropEffect = "move";
    }
  }, []);
  const onDrop = useCallback(
    (e: DragEvent) => {
      const kind = e.dataTransfer.getData(DRAG_MIME);
      if (!isNodeType(kind)) return;
      e.preventDefault();
      const p = rf.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      addNode(kind, { x: Math.round(p.x - NODE_WIDTH / 2), y: Math.round(p.y - 28) });
    },
    [addNode, rf],
  );

  const updateConfig = useCallback(
    (nodeId: string, key: string, value: unknown) => {
      if (readOnly) return;
      const list = nodesRef.current;
      const i = list.findIndex((n) => n.id === nodeId);
      const node = list[i];
      if (!node) return;
      const config = { ...node.data.config };
      if (value === undefined) delete config[key];
      else config[key] = value;
      const next = list.slice();
      next[i] = { ...node, data: { ...node.data, config } };
      let edgesNext = edgesRef.current;
      if (node.data.kind === "condition" && (key === "trueTarget" || key === "falseTarget")) {
        // Unlabelled edges follow trueTarget/falseTarget: redraw them from the matching handle.
        edgesNext = edgesNext.map((e) => {
          if (e.source !== nodeId || e.data?.condition !== undefined) return e;
          const handle = branchOf({ source: e.source, target: e.target }, config);
          return handle === e.sourceHandle ? e : { ...e, sourceHandle: handle };
        });
      }
      apply({ nodes: next, edges: edgesNext }, `${nodeId}/${key}`);
    },
    [apply, edgesRef, nodesRef, readOnly],
  );

  const rename = useCallback(
    (from: string, to: string) => {
      apply(renameNode(nodesRef.current, edgesRef.current, from, to));
      onRenamed(from, to);
    },
    [apply, edgesRef, nodesRef, onRenamed],
  );

  const isTaken = useCallback((id: string) => nodesRef.current.some((n) => n.id === id), [nodesRef]);

  const deleteNodes = useCallback(
    (ids: string[]) => void rf.deleteElements({ nodes: ids.map((id) => ({ id })) }),
    [rf],
  );
  const deleteOne = useCallback((id: string) => deleteNodes([id]), [deleteNodes]);

  const pasteFrom = useCallback(
    (clip: Clipboard, offset: { x: number; y: number }) => {
      const pasted = pasteClipboard(clip, new Set(nodesRef.current.map((n) => n.id)), offset);
      const newNodes = pasted.nodes.map((n) => ({ ...toFlowNode(n), selected: true }));
      const lookup = flowLookup(newNodes);
      const newEdges = pasted.edges.map((e) => toFlowEdge(e, lookup));
      apply({
        nodes: [...withSelection(nodesRef.current, NONE), ...newNodes],
        edges: [...edgesRef.current, ...newEdges],
      });
    },
    [apply, edgesRef, nodesRef],
  );

  const duplicate = useCallback(
    (id: string) => pasteFrom(copySelection(nodesRef.current, edgesRef.current, new Set([id])), { x: 40, y: 40 }),
    [edgesRef, nodesRef, pasteFrom],
  );

  /** Copies the selected nodes (and the edges between them); returns how many. */
  const copy = useCallback((): number => {
    const sel = new Set(nodesRef.current.filter((n) => n.selected).map((n) => n.id));
    if (sel.size === 0) return 0;
    clipboard.current = copySelection(nodesRef.current, edgesRef.current, sel);
    pasteCount.current = 0;
    return sel.size;
  }, [edgesRef, nodesRef]);

  /** Pastes the clipboard, each paste a little further down and right; false when there is nothing to paste. */
  const paste = useCallback((): boolean => {
    if (!clipboard.current || readOnly) return false;
    pasteCount.current += 1;
    pasteFrom(clipboard.current, { x: 40 * pasteCount.current, y: 40 * pasteCount.current });
    return true;
  }, [pasteFrom, readOnly]);

  const autoLayout = useCallback(async () => {
    if (readOnly || nodesRef.current.length === 0) return;
    try {
      const pos = await layoutPositions(nodesRef.current, edgesRef.current);
      apply({
        nodes: nodesRef.current.map((n) =>
          pos.has(n.id) ? { ...n, position: pos.get(n.id) as { x: number; y: number } } : n,
        ),
        edges: edgesRef.current,
      });
      requestAnimationFrame(() => void rf.fitView({ ...fitViewOptions, duration: 300 }));
    } catch (e) {
      toast("error", `Auto-layout failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }, [apply, edgesRef, nodesRef, readOnly, rf, toast]);

  return {
    addAtCentre,
    onDragOver,
    onDrop,
    updateConfig,
    rename,
    isTaken,
    deleteNodes,
    deleteOne,
    duplicate,
    copy,
    paste,
    autoLayout,
  };
}
