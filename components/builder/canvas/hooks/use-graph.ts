"use client";

/**
 * The graph and its history: nodes and edges in React Flow's controlled mode, mirrored in refs so every callback
 * stays stable; a content revision (`rev`, drives validation and drafts) apart from moves (`posRev`, drafts only);
 * undo/redo over snapshots; and React Flow's change handlers, which record history and refuse edits when read-only.
 */
import {
  applyEdgeChanges,
  applyNodeChanges,
  type Connection,
  type EdgeChange,
  type IsValidConnection,
  type NodeChange,
} from "@xyflow/react";
import { useCallback, useMemo, useRef, useState, type RefObject } from "react";
import { History } from "../../model/history";
import { newEdgeId, toFlow, toWorkflow, type SpecWorkflow, type WfEdge, type WfNode } from "../../model/workflow";

export type Snapshot = { nodes: WfNode[]; edges: WfEdge[] };

export interface Graph {
  /** what the canvas opened with (fit the view to it when it has nodes) */
  initial: Snapshot;
  nodes: WfNode[];
  edges: WfEdge[];
  nodesRef: RefObject<WfNode[]>;
  edgesRef: RefObject<WfEdge[]>;
  /** bumped on every change of the workflow's content */
  rev: number;
  /** bumped when nodes only moved */
  posRev: number;
  bumpRev: () => void;
  snapshot: () => Snapshot;
  /** replaces both lists without a history step (loading a version) */
  setBoth: (next: Snapshot) => void;
  /** replaces the nodes or the edges with no content change (selection) */
  setNodes: (next: WfNode[]) => void;
  setEdges: (next: WfEdge[]) => void;
  /** a content change as one undoable step; the same `coalesce` key within a second joins the previous step */
  apply: (next: Snapshot, coalesce?: string) => void;
  /** records the current graph as an undo step before a change made elsewhere */
  record: (coalesce?: string) => void;
  undo: () => void;
  redo: () => void;
  canUndo: boolean;
  canRedo: boolean;
  /** after a save: the next edit starts a new step */
  seal: () => void;
  getWorkflow: () => SpecWorkflow;
  onNodesChange: (changes: NodeChange<WfNode>[]) => void;
  onEdgesChange: (changes: EdgeChange<WfEdge>[]) => void;
  onBeforeDelete: () => Promise<boolean>;
  onDragStart: () => void;
  onDragStop: () => void;
  isValidConnection: IsValidConnection<WfEdge>;
  onConnect: (c: Connection) => void;
}

export function useGraph(initialWorkflow: SpecWorkflow, readOnly: boolean): Graph {
  const initial = useMemo(() => toFlow(initialWorkflow), [initialWorkflow]);
  const [nodes, setNodesState] = useState<WfNode[]>(initial.nodes);
  const [edges, setEdgesState] = useState<WfEdge[]>(initial.edges);
  const nodesRef = useRef(nodes);
  const edgesRef = useRef(edges);
  const [rev, setRev] = useState(0);
  const [posRev, setPosRev] = useState(0);
  const history = useRef(new History<Snapshot>(100));
  const [, setHistTick] = useState(0);
  const dragging = useRef(false);

  const bumpRev = useCallback(() => setRev((r) => r + 1), []);
  const snapshot = useCallback((): Snapshot => ({ nodes: nodesRef.current, edges: edgesRef.current }), []);
  const setNodes = useCallback((next: WfNode[]) => {
    nodesRef.current = next;
    setNodesState(next);
  }, []);
  const setEdges = useCallback((next: WfEdge[]) => {
    edgesRef.current = next;
    setEdgesState(next);
  }, []);
  const setBoth = useCallback(
    (next: Snapshot) => {
      setNodes(next.nodes);
      setEdges(next.edges);
    },
    [setNodes, setEdges],
  );
  const record = useCallback(
    (coalesce?: string) => {
      history.current.record(snapshot(), coalesce);
      setHistTick((t) => t + 1);
    },
    [snapshot],
  );
  const apply = useCallback(
    (next: Snapshot, coalesce?: string) => {
      record(coalesce);
      setBoth(next);
      setRev((r) => r + 1);
    },
    [record, setBoth],
  );
  const step = useCallback(
    (to: Snapshot | undefined) => {
      if (!to) return;
      setBoth(to);
      setRev((r) => r + 1);
      setHistTick((t) => t + 1);
    },
    [setBoth],
  );
  const undo = useCallback(() => step(history.current.undo(snapshot())), [snapshot, step]);
  const redo = useCallback(() => step(history.current.redo(snapshot())), [snapshot, step]);
  const seal = useCallback(() => history.current.seal(), []);
  const getWorkflow = useCallback(() => toWorkflow(nodesRef.current, edgesRef.current), []);

  const onNodesChange = useCallback(
    (changes: NodeChange<WfNode>[]) => {
      let content = false;
      let moved = false;
      let keyboardMove = false;
      for (const c of changes) {
        if (c.type === "remove" || c.type === "add" || c.type === "replace") content = true;
        else if (c.type === "position" && c.dragging === false && c.position) {
          moved = true;
          if (!dragging.current) keyboardMove = true;
        }
      }
      if (readOnly && (content || moved)) return;
      if (keyboardMove) record("keyboard-move");
      setNodes(applyNodeChanges(changes, nodesRef.current));
      if (content) setRev((r) => r + 1);
      else if (moved) setPosRev((r) => r + 1);
    },
    [readOnly, record, setNodes],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<WfEdge>[]) => {
      const content = changes.some((c) => c.type === "remove" || c.type === "add" || c.type === "replace");
      if (readOnly && content) return;
      setEdges(applyEdgeChanges(changes, edgesRef.current));
      if (content) setRev((r) => r + 1);
    },
    [readOnly, setEdges],
  );

  const onBeforeDelete = useCallback(async () => {
    if (readOnly) return false;
    record();
    return true;
  }, [readOnly, record]);

  const onDragStart = useCallback(() => {
    dragging.current = true;
    record();
  }, [record]);
  const onDragStop = useCallback(() => {
    dragging.current = false;
  }, []);

  const isValidConnection = useCallback<IsValidConnection<WfEdge>>(
    (c) =>
      c.source !== c.target &&
      !edgesRef.current.some(
        (e) => e.source === c.source && e.target === c.target && (e.sourceHandle ?? null) === (c.sourceHandle ?? null),
      ),
    [],
  );

  const onConnect = useCallback(
    (c: Connection) => {
      if (readOnly) return;
      const src = nodesRef.current.find((n) => n.id === c.source);
      const branch =
        src?.data.kind === "condition" && (c.sourceHandle === "true" || c.sourceHandle === "false")
          ? c.sourceHandle
          : undefined;
      const edge: WfEdge = {
        id: newEdgeId(),
        type: "wf",
        source: c.source,
        target: c.target,
        sourceHandle: c.sourceHandle ?? "out",
        targetHandle: c.targetHandle ?? "in",
        data: branch ? { condition: branch } : {},
      };
      apply({ nodes: nodesRef.current, edges: [...edgesRef.current, edge] });
    },
    [apply, readOnly],
  );

  return {
    initial,
    nodes,
    edges,
    nodesRef,
    edgesRef,
    rev,
    posRev,
    bumpRev,
    snapshot,
    setBoth,
    setNodes,
    setEdges,
    apply,
    record,
    undo,
    redo,
    canUndo: history.current.canUndo,
    canRedo: history.current.canRedo,
    seal,
    getWorkflow,
    onNodesChange,
    onEdgesChange,
    onBeforeDelete,
    onDragStart,
    onDragStop,
    isValidConnection,
    onConnect,
  };
}
