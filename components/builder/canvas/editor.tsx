"use client";

/**
 * The workflow canvas: React Flow in controlled mode over the spec workflow, with live server validation,
 * undo/redo, copy/paste, auto-layout, local drafts, versions, import/export and test runs.
 *
 * State ownership: nodes/edges live here (mirrored in refs so callbacks stay stable); findings and test-run
 * steps live in keyed stores read by each node/edge component; the saved baseline lives in a ref.
 */
import "@xyflow/react/dist/style.css";
import "./canvas.css";

import { useQueryClient } from "@tanstack/react-query";
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  applyEdgeChanges,
  applyNodeChanges,
  useReactFlow,
  type Connection,
  type EdgeChange,
  type EdgeTypes,
  type IsValidConnection,
  type NodeChange,
  type NodeTypes,
  type OnSelectionChangeParams,
} from "@xyflow/react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from "react";
import { ICONS, Icon } from "@/components/ui/icon";
import { IconButton } from "@/components/ui/icon-button";
import { JsonFileInput } from "@/components/ui/json-file-input";
import { Tip } from "@/components/ui/tooltip";
import { isNodeType, type NodeType } from "@/server/workflow/contract";
import { useTRPC, useTRPCClient } from "@/lib/trpc";
import { templateOptions } from "../config-form/completion";
import { controlId } from "../config-form/config-form";
import { formModel } from "../config-form/form-model";
import { removeDraft, writeDraft, type DraftKey } from "../model/drafts";
import { EMPTY_FINDINGS, REQUIRED_GROUP_KEY, indexFindings, sameNodeFindings, statusText, type IndexedFindings, type LocatedFinding } from "../model/findings";
import { History } from "../model/history";
import { layoutPositions } from "../model/layout";
import {
  NODE_HEIGHT,
  NODE_WIDTH,
  branchOf,
  copySelection,
  flowLookup,
  freshNodeId,
  initialConfig,
  newEdgeId,
  parseWorkflowJson,
  pasteClipboard,
  renameNode,
  toFlow,
  toFlowEdge,
  toFlowNode,
  toWorkflow,
  workflowKey,
  type Clipboard,
  type SpecWorkflow,
  type WfEdge,
  type WfNode,
} from "../model/workflow";
import { kindStyle } from "../node-kinds";
import { FlowEdge } from "./flow-edge";
import { FlowNode } from "./flow-node";
import { EmptyInspector, Inspector } from "./inspector";
import { IssuesPanel } from "./issues-panel";
import { DRAG_MIME, Palette } from "./palette";
import { StoresContext, createStores, type RunStep } from "./stores";
import { TestRunPanel } from "./test-run-panel";
import { VersionPreview, VersionsPanel } from "./versions";

export interface EditorProps {
  /** null while the agent has never been saved (a new draft). */
  agentId: string | null;
  draftKey: DraftKey;
  initialName: string;
  initialWorkflow: SpecWorkflow;
  /** The last saved version (null for a new agent). */
  saved: { name: string; workflow: SpecWorkflow; version: number } | null;
  canWrite: boolean;
  /** The canvas opened on a local draft saved at this time. */
  restoredDraftAt?: string;
  /** The local draft is based on an older version than the latest. */
  draftBehind?: { base: number; latest: number };
  onDiscardDraft?: () => void;
  /** Notes from importing a file (ids or positions that had to be filled in). */
  notices?: string[];
  origin?: string;
}

type Snapshot = { nodes: WfNode[]; edges: WfEdge[] };
type Toast = { id: number; kind: "info" | "error" | "success"; text: string };

const nodeTypes: NodeTypes = { wf: FlowNode };
const edgeTypes: EdgeTypes = { wf: FlowEdge };
const fitViewOptions = { padding: 0.2, maxZoom: 1 };
const proOptions = { hideAttribution: false };
// Stable arrays: React Flow re-subscribes its key listeners whenever these change identity.
const DELETE_KEYS = ["Backspace", "Delete"];
const MULTI_SELECT_KEYS = ["Meta", "Control"];

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || !!target.closest(".cm-editor");
}

/** CodeMirror fields have no history of their own: their Ctrl+Z is the canvas' undo. */
function inCodeEditor(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && !!target.closest(".cm-editor");
}

/** The spot nearest to `want` (below/above first, then sideways) where a new node overlaps no other node. */
function freeSpot(want: { x: number; y: number }, nodes: readonly WfNode[]): { x: number; y: number } {
  const rects = nodes.map((n) => ({ x: n.position.x, y: n.position.y, w: n.measured?.width ?? NODE_WIDTH, h: n.measured?.height ?? NODE_HEIGHT }));
  const gap = 24;
  const free = (p: { x: number; y: number }) =>
    !rects.some((r) => p.x < r.x + r.w + gap && p.x + NODE_WIDTH + gap > r.x && p.y < r.y + r.h + gap && p.y + NODE_HEIGHT + gap > r.y);
  const dy = NODE_HEIGHT + gap;
  const dx = NODE_WIDTH + gap;
  for (let ring = 0; ring < 12; ring++) {
    for (const [i, j] of [[0, ring], [0, -ring], [ring, 0], [-ring, 0], [ring, ring], [-ring, ring], [ring, -ring], [-ring, -ring]] as const) {
      const p = { x: want.x + i * dx, y: want.y + j * dy };
      if (free(p)) return p;
    }
  }
  return want;
}

function slug(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "workflow";
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function WorkflowEditor(props: EditorProps) {
  return (
    <ReactFlowProvider>
      <EditorInner {...props} />
    </ReactFlowProvider>
  );
}

function EditorInner(props: EditorProps) {
  const { agentId, draftKey, canWrite } = props;
  const readOnly = !canWrite;
  const rf = useReactFlow<WfNode, WfEdge>();
  const client = useTRPCClient();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();

  const initial = useMemo(() => toFlow(props.initialWorkflow), [props.initialWorkflow]);
  const [nodes, setNodes] = useState<WfNode[]>(initial.nodes);
  const [edges, setEdges] = useState<WfEdge[]>(initial.edges);
  const nodesRef = useRef(nodes);
  const edgesRef = useRef(edges);
  const [name, setName] = useState(props.initialName);
  const nameRef = useRef(name);
  nameRef.current = name;

  /** Bumped on every change of the workflow's content (validation, drafts); positions only bump posRev. */
  const [rev, setRev] = useState(0);
  const [posRev, setPosRev] = useState(0);
  const history = useRef(new History<Snapshot>(100));
  const [, setHistTick] = useState(0);
  const dragging = useRef(false);
  const clipboard = useRef<Clipboard | null>(null);
  const pasteCount = useRef(0);

  const stores = useMemo(() => createStores(sameNodeFindings), []);
  const [findings, setFindings] = useState<IndexedFindings>(EMPTY_FINDINGS);
  const [validating, setValidating] = useState(true);
  const [validationError, setValidationError] = useState<string | null>(null);
  const [roundTripMs, setRoundTripMs] = useState<number | null>(null);
  const seq = useRef(0);

  const saved = useRef(props.saved ? { json: workflowKey(props.saved.workflow), name: props.saved.name, version: props.saved.version } : null);
  const [savedVersion, setSavedVersion] = useState<number | null>(props.saved?.version ?? null);
  const initialKey = useRef(workflowKey(props.initialWorkflow));
  const [dirty, setDirty] = useState(() => !!props.restoredDraftAt);
  const [saving, setSaving] = useState(false);
  /** Set once the canvas is handing over to another page (after creating the agent): drafts stop being written. */
  const leaving = useRef(false);

  const [selectedIds, setSelectedIds] = useState<string[]>([]);
  const [rightTab, setRightTab] = useState<"inspect" | "run">("inspect");
  const [issuesOpen, setIssuesOpen] = useState(true);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [preview, setPreview] = useState<number | null>(null);
  const [restoring, setRestoring] = useState(false);
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [focusReq, setFocusReq] = useState<{ nodeId: string; field?: string; nonce: number } | null>(null);
  const [draftBanner, setDraftBanner] = useState(!!props.restoredDraftAt);
  const wrapper = useRef<HTMLDivElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const toast = useCallback((kind: Toast["kind"], text: string) => {
    const id = Date.now() + Math.random();
    setToasts((t) => [...t.slice(-2), { id, kind, text }]);
    setTimeout(() => setToasts((t) => t.filter((x) => x.id !== id)), kind === "error" ? 8000 : 4000);
  }, []);

  useEffect(() => {
    for (const n of props.notices ?? []) toast("info", n);
    // Only the notices the editor opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // ------------------------------------------------------------------ state helpers

  const snapshot = useCallback((): Snapshot => ({ nodes: nodesRef.current, edges: edgesRef.current }), []);
  const setBoth = useCallback((next: Snapshot) => {
    nodesRef.current = next.nodes;
    edgesRef.current = next.edges;
    setNodes(next.nodes);
    setEdges(next.edges);
  }, []);
  /** Applies a content change as one undoable step (typing in one field coalesces). */
  const apply = useCallback(
    (next: Snapshot, coalesce?: string) => {
      history.current.record(snapshot(), coalesce);
      setBoth(next);
      setRev((r) => r + 1);
      setHistTick((t) => t + 1);
    },
    [setBoth, snapshot],
  );

  const undo = useCallback(() => {
    const prev = history.current.undo(snapshot());
    if (!prev) return;
    setBoth(prev);
    setRev((r) => r + 1);
    setHistTick((t) => t + 1);
  }, [setBoth, snapshot]);
  const redo = useCallback(() => {
    const next = history.current.redo(snapshot());
    if (!next) return;
    setBoth(next);
    setRev((r) => r + 1);
    setHistTick((t) => t + 1);
  }, [setBoth, snapshot]);

  // ------------------------------------------------------------------ React Flow handlers

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
      if (keyboardMove) {
        history.current.record(snapshot(), "keyboard-move");
        setHistTick((t) => t + 1);
      }
      const next = applyNodeChanges(changes, nodesRef.current);
      nodesRef.current = next;
      setNodes(next);
      if (content) setRev((r) => r + 1);
      else if (moved) setPosRev((r) => r + 1);
    },
    [readOnly, snapshot],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<WfEdge>[]) => {
      const content = changes.some((c) => c.type === "remove" || c.type === "add" || c.type === "replace");
      if (readOnly && content) return;
      const next = applyEdgeChanges(changes, edgesRef.current);
      edgesRef.current = next;
      setEdges(next);
      if (content) setRev((r) => r + 1);
    },
    [readOnly],
  );

  const onBeforeDelete = useCallback(async () => {
    if (readOnly) return false;
    history.current.record(snapshot());
    setHistTick((t) => t + 1);
    return true;
  }, [readOnly, snapshot]);

  const onDragStartRecord = useCallback(() => {
    dragging.current = true;
    history.current.record(snapshot());
    setHistTick((t) => t + 1);
  }, [snapshot]);
  const onDragStopRecord = useCallback(() => {
    dragging.current = false;
  }, []);

  const isValidConnection = useCallback<IsValidConnection<WfEdge>>(
    (c) =>
      c.source !== c.target &&
      !edgesRef.current.some((e) => e.source === c.source && e.target === c.target && (e.sourceHandle ?? null) === (c.sourceHandle ?? null)),
    [],
  );

  const onConnect = useCallback(
    (c: Connection) => {
      if (readOnly) return;
      const src = nodesRef.current.find((n) => n.id === c.source);
      const branch = src?.data.kind === "condition" && (c.sourceHandle === "true" || c.sourceHandle === "false") ? c.sourceHandle : undefined;
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

  const onSelectionChange = useCallback(({ nodes: sel }: OnSelectionChangeParams<WfNode, WfEdge>) => {
    const ids = sel.map((n) => n.id);
    setSelectedIds((prev) => (prev.length === ids.length && prev.every((p, i) => p === ids[i]) ? prev : ids));
  }, []);

  // ------------------------------------------------------------------ editing operations

  const selectOnly = useCallback((ids: ReadonlySet<string>, list: WfNode[]) => list.map((n) => (ids.has(n.id) !== !!n.selected ? { ...n, selected: ids.has(n.id) } : n)), []);

  const addNode = useCallback(
    (kind: NodeType, position: { x: number; y: number }) => {
      if (readOnly) return;
      const taken = new Set(nodesRef.current.map((n) => n.id));
      const id = freshNodeId(kind, taken);
      const node: WfNode = { ...toFlowNode({ id, type: kind, config: initialConfig(kind), position }), selected: true };
      const edgesNext = edgesRef.current.map((e) => (e.selected ? { ...e, selected: false } : e));
      apply({ nodes: [...selectOnly(new Set(), nodesRef.current), node], edges: edgesNext });
      setRightTab("inspect");
    },
    [apply, readOnly, selectOnly],
  );

  const addAtCentre = useCallback(
    (kind: NodeType) => {
      const rect = wrapper.current?.getBoundingClientRect();
      if (!rect) return;
      const c = rf.screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });
      addNode(kind, freeSpot({ x: Math.round(c.x - NODE_WIDTH / 2), y: Math.round(c.y - NODE_HEIGHT / 2) }, nodesRef.current));
    },
    [addNode, rf],
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
    [apply, readOnly],
  );

  const rename = useCallback(
    (from: string, to: string) => {
      const r = renameNode(nodesRef.current, edgesRef.current, from, to);
      apply(r);
      setSelectedIds((ids) => ids.map((id) => (id === from ? to : id)));
    },
    [apply],
  );

  const isTaken = useCallback((id: string) => nodesRef.current.some((n) => n.id === id), []);

  const deleteNodes = useCallback((ids: string[]) => void rf.deleteElements({ nodes: ids.map((id) => ({ id })) }), [rf]);
  const deleteOne = useCallback((id: string) => deleteNodes([id]), [deleteNodes]);

  const pasteFrom = useCallback(
    (clip: Clipboard, offset: { x: number; y: number }) => {
      const pasted = pasteClipboard(clip, new Set(nodesRef.current.map((n) => n.id)), offset);
      const newNodes = pasted.nodes.map((n) => ({ ...toFlowNode(n), selected: true }));
      const lookup = flowLookup(newNodes);
      const newEdges = pasted.edges.map((e) => toFlowEdge(e, lookup));
      apply({ nodes: [...selectOnly(new Set(), nodesRef.current), ...newNodes], edges: [...edgesRef.current, ...newEdges] });
      return newNodes.length;
    },
    [apply, selectOnly],
  );

  const duplicate = useCallback(
    (id: string) => {
      pasteFrom(copySelection(nodesRef.current, edgesRef.current, new Set([id])), { x: 40, y: 40 });
    },
    [pasteFrom],
  );

  const autoLayout = useCallback(async () => {
    if (readOnly || nodesRef.current.length === 0) return;
    try {
      const pos = await layoutPositions(nodesRef.current, edgesRef.current);
      apply({ nodes: nodesRef.current.map((n) => (pos.has(n.id) ? { ...n, position: pos.get(n.id) as { x: number; y: number } } : n)), edges: edgesRef.current });
      requestAnimationFrame(() => void rf.fitView({ ...fitViewOptions, duration: 300 }));
    } catch (e) {
      toast("error", `Auto-layout failed: ${errorMessage(e)}`);
    }
  }, [apply, readOnly, rf, toast]);

  const getWorkflow = useCallback(() => toWorkflow(nodesRef.current, edgesRef.current), []);

  // ------------------------------------------------------------------ live validation (server, debounced, latest wins)

  useEffect(() => {
    const mine = ++seq.current;
    setValidating(true);
    const timer = setTimeout(async () => {
      const nodesSnap = nodesRef.current;
      const edgesSnap = edgesRef.current;
      const workflow = toWorkflow(nodesSnap, edgesSnap);
      const t0 = performance.now();
      try {
        const result = await client.builder.validate.mutate({ workflow });
        if (mine !== seq.current) return; // a newer edit is being validated: this answer is stale
        const idx = indexFindings(result, nodesSnap.map((n) => n.id), edgesSnap.map((e) => e.id));
        stores.nodeFindings.replace(idx.byNode);
        stores.edgeFindings.replace(idx.byEdge);
        setFindings(idx);
        setRoundTripMs(performance.now() - t0);
        setValidationError(null);
        setValidating(false);
      } catch (e) {
        if (mine !== seq.current) return;
        setValidationError(errorMessage(e));
        setValidating(false);
      }
    }, 250);
    return () => clearTimeout(timer);
  }, [rev, client, stores]);

  // ------------------------------------------------------------------ drafts and dirty state

  useEffect(() => {
    if (readOnly) return;
    const timer = setTimeout(() => {
      if (leaving.current) return;
      const workflow = toWorkflow(nodesRef.current, edgesRef.current);
      const key = workflowKey(workflow);
      const base = saved.current;
      const isDirty = base ? key !== base.json || nameRef.current.trim() !== base.name : key !== initialKey.current || nameRef.current !== props.initialName || !!props.restoredDraftAt;
      setDirty(isDirty);
      if (isDirty) writeDraft(draftKey, { name: nameRef.current, workflow, baseVersion: base?.version, origin: props.origin });
      else if (base) removeDraft(draftKey);
    }, 300);
    return () => clearTimeout(timer);
  }, [rev, posRev, name, draftKey, readOnly, props.initialName, props.restoredDraftAt, props.origin]);

  // Warn before leaving with unsaved edits: reloads and tab closes, and in-app links.
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    const onClick = (e: MouseEvent) => {
      const a = (e.target as HTMLElement | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (!a || a.target === "_blank" || e.defaultPrevented) return;
      const url = new URL(a.href, window.location.href);
      if (url.origin !== window.location.origin || url.pathname === window.location.pathname) return;
      if (!window.confirm("You have unsaved changes. They are kept as a local draft in this browser. Leave the canvas?")) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [dirty]);

  // ------------------------------------------------------------------ save

  const saveBlock: string | null = readOnly
    ? "Your role can view this agent but not save it."
    : !name.trim()
      ? "Give the agent a name first."
      : validationError
        ? "Validation is unavailable right now; saving needs a valid workflow."
        : validating
          ? "Checking the workflow…"
          : findings.errors > 0
            ? `Fix ${findings.errors} error${findings.errors === 1 ? "" : "s"} before saving (see Issues).`
            : agentId && !dirty
              ? "No unsaved changes."
              : null;

  const save = useCallback(async () => {
    if (saveBlock || saving) return;
    const workflow = toWorkflow(nodesRef.current, edgesRef.current);
    const trimmed = nameRef.current.trim();
    setSaving(true);
    try {
      if (!agentId) {
        const res = await client.builder.agents.create.mutate({ name: trimmed, workflow, note: props.origin ? `Created from ${props.origin}` : undefined });
        leaving.current = true;
        removeDraft(draftKey);
        setDirty(false);
        await queryClient.invalidateQueries({ queryKey: trpc.builder.agents.list.queryKey() });
        router.replace(`/builder/${res.agent.id}?created=1`);
        return;
      }
      if (saved.current && trimmed !== saved.current.name) await client.builder.agents.update.mutate({ id: agentId, body: { name: trimmed } });
      const res = await client.builder.versions.create.mutate({ id: agentId, body: { workflow } });
      saved.current = { json: workflowKey(workflow), name: trimmed, version: res.version.version };
      setSavedVersion(res.version.version);
      setDirty(false);
      setDraftBanner(false);
      removeDraft(draftKey);
      history.current.seal();
      toast("success", `Saved version ${res.version.version}${res.warnings.length ? ` with ${res.warnings.length} warning${res.warnings.length === 1 ? "" : "s"}` : ""}.`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.builder.versions.list.queryKey({ id: agentId }) }),
        queryClient.invalidateQueries({ queryKey: trpc.builder.agents.list.queryKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.builder.agents.get.queryKey({ id: agentId }) }),
      ]);
    } catch (e) {
      toast("error", `Not saved: ${errorMessage(e)}`);
      setRev((r) => r + 1);
    } finally {
      setSaving(false);
    }
  }, [saveBlock, saving, agentId, client, draftKey, props.origin, queryClient, router, toast, trpc]);
  const saveRef = useRef(save);
  saveRef.current = save;

  // ------------------------------------------------------------------ versions: restore

  const restore = useCallback(
    async (workflow: SpecWorkflow, version: number) => {
      if (!agentId) return;
      if (dirty && !window.confirm("Restoring replaces your unsaved changes on the canvas. Continue?")) return;
      setRestoring(true);
      try {
        const res = await client.builder.versions.create.mutate({ id: agentId, body: { workflow, note: `Restored from version ${version}` } });
        const flow = toFlow(workflow);
        history.current.record(snapshot());
        setBoth(flow);
        setRev((r) => r + 1);
        saved.current = { json: workflowKey(workflow), name: nameRef.current.trim(), version: res.version.version };
        setSavedVersion(res.version.version);
        setDirty(false);
        removeDraft(draftKey);
        setPreview(null);
        setVersionsOpen(false);
        toast("success", `Version ${version} restored as version ${res.version.version}.`);
        await queryClient.invalidateQueries({ queryKey: trpc.builder.versions.list.queryKey({ id: agentId }) });
        requestAnimationFrame(() => void rf.fitView(fitViewOptions));
      } catch (e) {
        toast("error", `Not restored: ${errorMessage(e)}`);
      } finally {
        setRestoring(false);
      }
    },
    [agentId, client, dirty, draftKey, queryClient, rf, setBoth, snapshot, toast, trpc],
  );

  // ------------------------------------------------------------------ import / export

  const exportJson = useCallback(() => {
    const text = `${JSON.stringify(getWorkflow(), null, 2)}\n`;
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `${slug(nameRef.current)}.workflow.json`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }, [getWorkflow]);

  const importFile = useCallback(
    async (file: File) => {
      const parsed = parseWorkflowJson(await file.text());
      if (!parsed.ok) {
        toast("error", `${file.name}: ${parsed.error}`);
        return;
      }
      apply(toFlow(parsed.workflow));
      toast("info", `Imported ${parsed.workflow.nodes.length} nodes from ${file.name}; checking it now. Undo (Ctrl+Z) brings back the previous graph.`);
      for (const n of parsed.notes) toast("info", n);
      requestAnimationFrame(() => void rf.fitView(fitViewOptions));
    },
    [apply, rf, toast],
  );

  // ------------------------------------------------------------------ keyboard

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (!mod || e.altKey) return;
      const k = e.key.toLowerCase();
      if (k === "s") {
        e.preventDefault();
        void saveRef.current();
        return;
      }
      if (preview !== null) return;
      const isUndo = (k === "z" && !e.shiftKey) || (k === "z" && e.shiftKey) || k === "y";
      if (isEditable(e.target) && !(isUndo && inCodeEditor(e.target))) return;
      if (k === "z" && !e.shiftKey) {
        e.preventDefault();
        undo();
      } else if ((k === "z" && e.shiftKey) || k === "y") {
        e.preventDefault();
        redo();
      } else if (k === "c") {
        if (window.getSelection()?.toString()) return;
        const sel = new Set(nodesRef.current.filter((n) => n.selected).map((n) => n.id));
        if (sel.size === 0) return;
        clipboard.current = copySelection(nodesRef.current, edgesRef.current, sel);
        pasteCount.current = 0;
        e.preventDefault();
        toast("info", `Copied ${sel.size} node${sel.size === 1 ? "" : "s"}.`);
      } else if (k === "v") {
        if (!clipboard.current || readOnly) return;
        e.preventDefault();
        pasteCount.current += 1;
        pasteFrom(clipboard.current, { x: 40 * pasteCount.current, y: 40 * pasteCount.current });
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [undo, redo, pasteFrom, preview, readOnly, toast]);

  // ------------------------------------------------------------------ issues: select, centre, focus

  const pick = useCallback(
    (f: LocatedFinding) => {
      const id = f.node;
      if (id && nodesRef.current.some((n) => n.id === id)) {
        const next = selectOnly(new Set([id]), nodesRef.current);
        nodesRef.current = next;
        setNodes(next);
        const internal = rf.getInternalNode(id);
        const w = internal?.measured.width ?? NODE_WIDTH;
        const h = internal?.measured.height ?? NODE_HEIGHT;
        const p = internal?.internals.positionAbsolute ?? nodesRef.current.find((n) => n.id === id)?.position ?? { x: 0, y: 0 };
        void rf.setCenter(p.x + w / 2, p.y + h / 2, { zoom: Math.max(rf.getZoom(), 0.9), duration: 300 });
        setRightTab("inspect");
        setFocusReq({ nodeId: id, field: f.field, nonce: Date.now() });
      } else if (f.edge) {
        const edge = edgesRef.current.find((e) => e.id === f.edge);
        if (!edge) return;
        const nextEdges = edgesRef.current.map((e) => (e.id === f.edge) !== !!e.selected ? { ...e, selected: e.id === f.edge } : e);
        edgesRef.current = nextEdges;
        setEdges(nextEdges);
        void rf.fitView({ nodes: [{ id: edge.source }, { id: edge.target }], padding: 0.5, duration: 300, maxZoom: 1 });
      }
    },
    [rf, selectOnly],
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
      const target = (host?.querySelector(".cm-content, input, select, textarea, button") as HTMLElement | null) ?? (field ? document.getElementById(controlId(focusReq.nodeId, field)) : null);
      if (target) {
        host?.scrollIntoView({ block: "center", behavior: "smooth" });
        target.focus({ preventScroll: true });
      } else if (++tries < 10) requestAnimationFrame(attempt);
    };
    requestAnimationFrame(attempt);
  }, [focusReq]);

  // ------------------------------------------------------------------ derived view data

  const selectedId = selectedIds.length === 1 ? selectedIds[0] : undefined;
  const selectedData = selectedId ? nodes.find((n) => n.id === selectedId)?.data : undefined;
  // Completion options and branch targets depend on content only (not on positions or selection flags).
  const options = useMemo(() => (selectedId ? templateOptions(toWorkflow(nodesRef.current, edgesRef.current), selectedId) : []), [selectedId, rev]); // eslint-disable-line react-hooks/exhaustive-deps
  const targets = useMemo(() => (selectedId ? [...new Set(edgesRef.current.filter((e) => e.source === selectedId).map((e) => e.target))] : []), [selectedId, rev]); // eslint-disable-line react-hooks/exhaustive-deps
  const toggleIssues = useCallback(() => setIssuesOpen((o) => !o), []);
  const setRunSteps = useCallback((steps: Map<string, RunStep>) => stores.runSteps.replace(steps), [stores]);
  const minimapColor = useCallback((n: WfNode) => kindStyle(n.data.kind).hex, []);

  const status = validationError ? "error" : validating ? "pending" : findings.errors > 0 ? "invalid" : "valid";
  const statusLabel =
    status === "error"
      ? "Validation unavailable"
      : status === "pending" && findings === EMPTY_FINDINGS
        ? "Checking…"
        : findings.errors > 0
          ? statusText(findings.errors, findings.warnings)
          : findings.warnings > 0
            ? `Valid · ${statusText(0, findings.warnings)}`
            : "Valid";
  const canUndo = history.current.canUndo && !readOnly;
  const canRedo = history.current.canRedo && !readOnly;
  const saveLabel = agentId ? (saving ? "Saving…" : "Save version") : saving ? "Creating…" : "Create agent";

  return (
    <StoresContext.Provider value={stores}>
      <div className="fb-canvas flex h-dvh min-h-0 flex-col overflow-hidden bg-slate-50">
        {/* ---------------------------------------------------------------- header */}
        <header className="relative z-20 flex h-14 shrink-0 items-center gap-3 border-b border-slate-200 bg-white px-3">
          <Link href="/builder" className="grid h-8 w-8 place-items-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-900" aria-label="Back to agents">
            <Icon d={ICONS.back} />
          </Link>
          <div className="flex min-w-0 items-center gap-2">
            <input
              aria-label="Agent name"
              value={name}
              maxLength={120}
              disabled={readOnly}
              placeholder="Name your agent"
              onChange={(e) => setName(e.target.value)}
              className="w-56 min-w-0 rounded-md border border-transparent bg-transparent px-2 py-1 text-[15px] font-semibold text-slate-900 hover:border-slate-200 focus:border-brand-500 focus:bg-white focus:outline-none"
            />
            <span className="hidden shrink-0 text-xs text-slate-500 lg:inline" data-testid="save-state">
              {!agentId ? "Draft · not saved yet" : dirty ? `v${savedVersion} · unsaved changes` : `v${savedVersion} · saved`}
            </span>
          </div>
          <button
            type="button"
            onClick={toggleIssues}
            data-testid="validation-status"
            data-state={status}
            data-validate-ms={roundTripMs === null ? undefined : roundTripMs.toFixed(1)}
            aria-label={`Validation: ${statusLabel}. Show issues`}
            className={`ml-1 inline-flex shrink-0 items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold ring-1 transition ${
              status === "valid"
                ? findings.warnings > 0
                  ? "bg-emerald-50 text-emerald-700 ring-emerald-200"
                  : "bg-emerald-50 text-emerald-700 ring-emerald-200"
                : status === "invalid"
                  ? "bg-red-50 text-red-700 ring-red-200"
                  : status === "error"
                    ? "bg-slate-100 text-slate-600 ring-slate-200"
                    : findings.errors > 0
                      ? "bg-red-50 text-red-700 ring-red-200"
                      : "bg-slate-50 text-slate-600 ring-slate-200"
            }`}
          >
            <span
              aria-hidden="true"
              className={`h-2 w-2 rounded-full ${status === "valid" ? "bg-emerald-500" : status === "invalid" ? "bg-red-500" : status === "error" ? "bg-slate-400" : findings.errors > 0 ? "animate-pulse bg-red-400" : "animate-pulse bg-slate-400"}`}
            />
            <span data-testid="validation-status-text">{statusLabel}</span>
          </button>

          <div className="ml-auto flex items-center gap-1">
            <IconButton label="Undo" shortcut="Ctrl+Z" onClick={undo} disabled={!canUndo}>
              <Icon d={ICONS.undo} />
            </IconButton>
            <IconButton label="Redo" shortcut="Ctrl+Shift+Z" onClick={redo} disabled={!canRedo}>
              <Icon d={ICONS.redo} />
            </IconButton>
            <span className="mx-1 h-5 w-px bg-slate-200" aria-hidden="true" />
            <IconButton label="Auto-layout" onClick={() => void autoLayout()} disabled={readOnly || nodes.length === 0}>
              <Icon d={ICONS.layout} />
            </IconButton>
            <IconButton label="Fit view" onClick={() => void rf.fitView({ ...fitViewOptions, duration: 300 })}>
              <Icon d={ICONS.fit} />
            </IconButton>
            <span className="mx-1 h-5 w-px bg-slate-200" aria-hidden="true" />
            <IconButton label="Import workflow JSON" onClick={() => fileInput.current?.click()} disabled={readOnly}>
              <Icon d={ICONS.upload} />
            </IconButton>
            <JsonFileInput inputRef={fileInput} label="Workflow JSON file" testId="canvas-import-input" onFile={(f) => void importFile(f)} />
            <IconButton label="Export workflow JSON" onClick={exportJson}>
              <Icon d={ICONS.download} />
            </IconButton>
            {agentId && (
              <IconButton label="Version history" onClick={() => setVersionsOpen((o) => !o)} aria-expanded={versionsOpen}>
                <Icon d={ICONS.history} />
              </IconButton>
            )}
            <span className="mx-1 h-5 w-px bg-slate-200" aria-hidden="true" />
            <Tip align="end" text={saveBlock ?? (agentId ? "Provision a new immutable version (Ctrl+S)" : "Create the agent with this workflow as version 1 (Ctrl+S)")} id="save-reason">
              <button
                type="button"
                onClick={() => void save()}
                aria-disabled={!!saveBlock || saving}
                aria-describedby="save-reason"
                data-testid="save-button"
                className={`inline-flex h-9 items-center gap-1.5 rounded-lg px-3.5 text-sm font-semibold shadow-sm transition ${
                  saveBlock || saving ? "cursor-not-allowed bg-slate-200 text-slate-500" : "bg-brand-600 text-white hover:bg-brand-700"
                }`}
              >
                <Icon d={ICONS.check} className="h-4 w-4" />
                {saveLabel}
              </button>
            </Tip>
          </div>
          {versionsOpen && agentId && <VersionsPanel agentId={agentId} current={savedVersion} onClose={() => setVersionsOpen(false)} onOpen={(v) => {
                setPreview(v);
                setVersionsOpen(false);
              }} />}
        </header>

        {/* ---------------------------------------------------------------- body */}
        <div className="flex min-h-0 flex-1">
          <Palette onAdd={addAtCentre} disabled={readOnly} />
          <div className="relative flex min-w-0 flex-1 flex-col">
            {draftBanner && (
              <div className="flex items-center gap-3 border-b border-brand-100 bg-brand-50 px-4 py-1.5 text-xs text-brand-700" role="status">
                <span>
                  Restored your unsaved changes from {props.restoredDraftAt ? new Date(props.restoredDraftAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "earlier"}
                  {props.draftBehind ? ` (based on version ${props.draftBehind.base}; the latest is ${props.draftBehind.latest})` : ""}.
                </span>
                {props.onDiscardDraft && (
                  <button type="button" className="font-semibold underline hover:text-brand-600" onClick={props.onDiscardDraft}>
                    Discard them
                  </button>
                )}
                <button type="button" aria-label="Dismiss" className="ml-auto" onClick={() => setDraftBanner(false)}>
                  <Icon d={ICONS.x} className="h-3.5 w-3.5" />
                </button>
              </div>
            )}
            <div ref={wrapper} className="relative min-h-0 flex-1" data-testid="canvas" onDragOver={onDragOver} onDrop={onDrop}>
              <ReactFlow<WfNode, WfEdge>
                nodes={nodes}
                edges={edges}
                nodeTypes={nodeTypes}
                edgeTypes={edgeTypes}
                onNodesChange={onNodesChange}
                onEdgesChange={onEdgesChange}
                onConnect={onConnect}
                isValidConnection={isValidConnection}
                onBeforeDelete={onBeforeDelete}
                onNodeDragStart={onDragStartRecord}
                onNodeDragStop={onDragStopRecord}
                onSelectionDragStart={onDragStartRecord}
                onSelectionDragStop={onDragStopRecord}
                onSelectionChange={onSelectionChange}
                deleteKeyCode={readOnly ? null : DELETE_KEYS}
                multiSelectionKeyCode={MULTI_SELECT_KEYS}
                nodesConnectable={!readOnly}
                nodesDraggable={!readOnly}
                onlyRenderVisibleElements={nodes.length > 150}
                fitView={initial.nodes.length > 0}
                fitViewOptions={fitViewOptions}
                minZoom={0.1}
                maxZoom={2}
                proOptions={proOptions}
                attributionPosition="bottom-center"
              >
                <Background gap={20} size={1.2} color="#cbd5e1" />
                <Controls showInteractive={false} position="bottom-left" />
                <MiniMap pannable zoomable position="bottom-right" ariaLabel="Minimap" nodeColor={minimapColor} nodeStrokeWidth={0} nodeBorderRadius={6} maskColor="rgba(241,245,249,0.7)" style={{ width: 168, height: 112 }} />
              </ReactFlow>
              {nodes.length === 0 && (
                <div className="pointer-events-none absolute inset-0 grid place-items-center">
                  <div className="rounded-2xl border border-dashed border-slate-300 bg-white/80 px-8 py-6 text-center shadow-sm backdrop-blur">
                    <div className="mx-auto grid h-10 w-10 place-items-center rounded-xl bg-emerald-500 text-white">{kindStyle("start").icon}</div>
                    <p className="mt-3 text-sm font-semibold text-slate-800">Start with a Start node</p>
                    <p className="mt-1 max-w-xs text-xs text-slate-500">Drag nodes from the palette on the left and connect their handles. Every edit is checked by the server as you go.</p>
                  </div>
                </div>
              )}
              <div className="pointer-events-none absolute inset-x-0 bottom-14 z-10 flex flex-col items-center gap-2" role="status" aria-live="polite">
                {toasts.map((t) => (
                  <div
                    key={t.id}
                    className={`pointer-events-auto max-w-xl rounded-lg px-3.5 py-2 text-sm shadow-lg ring-1 ${
                      t.kind === "error" ? "bg-red-600 text-white ring-red-700" : t.kind === "success" ? "bg-slate-900 text-white ring-slate-800" : "bg-white text-slate-800 ring-slate-200"
                    }`}
                  >
                    {t.text}
                  </div>
                ))}
              </div>
              {preview !== null && agentId && (
                <VersionPreview agentId={agentId} version={preview} canRestore={canWrite} restoring={restoring} onRestore={(wf, v) => void restore(wf, v)} onClose={() => setPreview(null)} />
              )}
            </div>
            <IssuesPanel findings={findings} open={issuesOpen} onToggle={toggleIssues} onPick={pick} pending={validating} error={validationError} />
          </div>

          {/* ---------------------------------------------------------------- right panel */}
          <aside aria-label="Node settings" className="flex w-[360px] shrink-0 flex-col border-l border-slate-200 bg-white">
            <div role="tablist" aria-label="Side panel" className="flex h-10 shrink-0 items-end gap-4 border-b border-slate-200 px-5">
              {(
                [
                  ["inspect", "Settings"],
                  ...(readOnly ? [] : ([["run", "Test run"]] as const)),
                ] as const
              ).map(([key, label]) => (
                <button
                  key={key}
                  type="button"
                  role="tab"
                  id={`tab-${key}`}
                  aria-selected={rightTab === key}
                  aria-controls={`tabpanel-${key}`}
                  onClick={() => setRightTab(key)}
                  className={`-mb-px border-b-2 pb-2 text-[13px] font-medium transition ${rightTab === key ? "border-brand-600 text-slate-900" : "border-transparent text-slate-500 hover:text-slate-800"}`}
                >
                  {label}
                </button>
              ))}
            </div>
            <div role="tabpanel" id={`tabpanel-${rightTab}`} aria-labelledby={`tab-${rightTab}`} className="min-h-0 flex-1">
              {rightTab === "inspect" ? (
                selectedId && selectedData ? (
                  <Inspector
                    key={selectedId}
                    nodeId={selectedId}
                    data={selectedData}
                    findings={findings}
                    options={options}
                    targets={targets}
                    readOnly={readOnly}
                    onConfigChange={updateConfig}
                    onRename={rename}
                    isTaken={isTaken}
                    onDelete={deleteOne}
                    onDuplicate={duplicate}
                  />
                ) : (
                  <EmptyInspector nodes={nodes.length} edges={edges.length} selectedCount={selectedIds.length} onDeleteSelected={() => deleteNodes(selectedIds)} readOnly={readOnly} />
                )
              ) : (
                <TestRunPanel agentId={agentId} getWorkflow={getWorkflow} hasErrors={findings.errors > 0} onSteps={setRunSteps} />
              )}
            </div>
          </aside>
        </div>
      </div>
    </StoresContext.Provider>
  );
}
