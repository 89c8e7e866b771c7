/**
 * The canvas' data model and its mapping to the spec's workflow JSON.
 *
 * The spec shape `{nodes: [{id, type, config, position}], edges: [{source, target, condition?}]}` is what is
 * saved, exported and validated. React Flow needs more (node/edge ids, handles, selection): that lives only on
 * the React Flow objects and is rebuilt on load (`toFlow`) and stripped on save (`toWorkflow`).
 *
 * Pure: no React, no DOM, so it is unit-tested in node.
 */
import type { Edge, Node } from "@xyflow/react";
import { NODE_CONTRACTS, isNodeType, type NodeType } from "@/server/workflow/contract";
import { extractTemplateRefs } from "@/server/workflow/templates";

export type Json = unknown;
export type Config = Record<string, unknown>;
export type BranchLabel = "true" | "false" | boolean;

export interface SpecNode {
  id: string;
  type: string;
  config: Config;
  position: { x: number; y: number };
}
export interface SpecEdge {
  source: string;
  target: string;
  condition?: BranchLabel;
}
export interface SpecWorkflow {
  nodes: SpecNode[];
  edges: SpecEdge[];
}

/** React Flow node data: the spec node's type (`kind`) and config. Everything else is canvas-only. */
export type WfNodeData = { kind: string; config: Config };
export type WfNode = Node<WfNodeData, "wf">;
/** `condition` is kept exactly as loaded or as set by the handle the edge was drawn from. */
export type WfEdgeData = { condition?: BranchLabel };
export type WfEdge = Edge<WfEdgeData, "wf">;

export const NODE_WIDTH = 248;
export const NODE_HEIGHT = 96;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Which branch handle an edge leaving a condition node is drawn from: its label, else trueTarget/falseTarget. */
export function branchOf(edge: SpecEdge, sourceConfig: Config | undefined): "true" | "false" | null {
  if (edge.condition === true || edge.condition === "true") return "true";
  if (edge.condition === false || edge.condition === "false") return "false";
  if (sourceConfig) {
    if (typeof sourceConfig.trueTarget === "string" && sourceConfig.trueTarget === edge.target) return "true";
    if (typeof sourceConfig.falseTarget === "string" && sourceConfig.falseTarget === edge.target) return "false";
  }
  return null;
}

let edgeCounter = 0;
/** A canvas-only edge id; never saved. */
export function newEdgeId(): string {
  edgeCounter += 1;
  return `e${Date.now().toString(36)}${edgeCounter.toString(36)}`;
}

export function toFlowNode(node: SpecNode): WfNode {
  const kind = node.type;
  const title = isNodeType(kind) ? NODE_CONTRACTS[kind].title : kind;
  return {
    id: node.id,
    type: "wf",
    position: { x: node.position.x, y: node.position.y },
    data: { kind, config: node.config },
    ariaLabel: `${title} node ${node.id}`,
    initialWidth: NODE_WIDTH,
    initialHeight: NODE_HEIGHT,
  };
}

export type NodeLookup = (id: string) => { kind: string; config: Config } | undefined;

export function toFlowEdge(edge: SpecEdge, lookup: NodeLookup, id = newEdgeId()): WfEdge {
  const source = lookup(edge.source);
  const handle = source?.kind === "condition" ? branchOf(edge, source.config) : "out";
  const data: WfEdgeData = {};
  if (edge.condition !== undefined) data.condition = edge.condition;
  return {
    id,
    type: "wf",
    source: edge.source,
    target: edge.target,
    sourceHandle: handle,
    targetHandle: "in",
    data,
  };
}

/** A lookup over React Flow nodes. */
export function flowLookup(nodes: readonly WfNode[]): NodeLookup {
  const byId = new Map(nodes.map((n) => [n.id, n] as const));
  return (id) => {
    const n = byId.get(id);
    return n ? { kind: n.data.kind, config: n.data.config } : undefined;
  };
}

/** Spec workflow -> React Flow nodes and edges. */
export function toFlow(workflow: SpecWorkflow): { nodes: WfNode[]; edges: WfEdge[] } {
  const byId = new Map(workflow.nodes.map((n) => [n.id, n] as const));
  const lookup: NodeLookup = (id) => {
    const n = byId.get(id);
    return n ? { kind: n.type, config: n.config } : undefined;
  };
  return {
    nodes: workflow.nodes.map(toFlowNode),
    edges: workflow.edges.map((e) => toFlowEdge(e, lookup)),
  };
}

/** React Flow nodes and edges -> exactly the spec's `{nodes, edges}` (no canvas-only data). */
export function toWorkflow(nodes: readonly WfNode[], edges: readonly WfEdge[]): SpecWorkflow {
  return {
    nodes: nodes.map((n) => ({
      id: n.id,
      type: n.data.kind,
      config: n.data.config,
      position: { x: n.position.x, y: n.position.y },
    })),
    edges: edges.map((e) => {
      const out: SpecEdge = { source: e.source, target: e.target };
      const condition = e.data?.condition;
      if (condition !== undefined) out.condition = condition;
      return out;
    }),
  };
}

/** The file name an export gets: the agent's name as a slug, `<slug>.workflow.json`. */
export function workflowFileName(name: string): string {
  const slug =
    name
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "workflow";
  return `${slug}.workflow.json`;
}

/** Parsing of a workflow file or pasted JSON: accepts `{nodes, edges}` or `{workflow: {nodes, edges}}`. */
export type ParsedWorkflow = { ok: true; workflow: SpecWorkflow; notes: string[] } | { ok: false; error: string };

export function parseWorkflowJson(text: string): ParsedWorkflow {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `The file is not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  return normalizeWorkflow(raw);
}

/**
 * Brings an imported value into the canvas' shape. Structural problems the canvas cannot draw (no nodes array,
 * a node that is not an object) are refused with a message; everything else is kept as written so the server's
 * validation reports it (unknown types, bad configs, dangling edges).
 */
export function normalizeWorkflow(raw: unknown): ParsedWorkflow {
  const root = isRecord(raw) && isRecord(raw.workflow) ? raw.workflow : raw;
  if (!isRecord(root) || !Array.isArray(root.nodes)) {
    return { ok: false, error: 'This is not a workflow: expected an object {"nodes": [...], "edges": [...]}.' };
  }
  const notes: string[] = [];
  const nodes: SpecNode[] = [];
  const taken = new Set<string>();
  for (const [i, item] of (root.nodes as unknown[]).entries()) {
    if (!isRecord(item))
      return { ok: false, error: `Node at index ${i} is not an object {id, type, config, position}.` };
    let id = typeof item.id === "string" && item.id !== "" ? item.id : "";
    const type = typeof item.type === "string" ? item.type : "unknown";
    if (!id || taken.has(id)) {
      const fresh = freshNodeId(isNodeType(type) ? type : "node", taken);
      notes.push(
        id
          ? `Node id "${id}" was used twice; the second one is now "${fresh}".`
          : `Node at index ${i} had no id; it is now "${fresh}".`,
      );
      id = fresh;
    }
    taken.add(id);
    const pos = item.position;
    let position: { x: number; y: number };
    if (isRecord(pos) && Number.isFinite(pos.x) && Number.isFinite(pos.y)) {
      position = { x: pos.x as number, y: pos.y as number };
    } else {
      position = { x: (i % 6) * (NODE_WIDTH + 60), y: Math.floor(i / 6) * (NODE_HEIGHT + 60) };
      notes.push(`Node "${id}" had no valid position; it was placed on a grid.`);
    }
    const config = isRecord(item.config) ? (item.config as Config) : {};
    if (item.config !== undefined && !isRecord(item.config))
      notes.push(`Node "${id}" had a config that is not an object; it was replaced by {}.`);
    nodes.push({ id, type, config, position });
  }
  const edges: SpecEdge[] = [];
  const rawEdges = Array.isArray(root.edges) ? (root.edges as unknown[]) : [];
  if (root.edges !== undefined && !Array.isArray(root.edges)) notes.push('"edges" was not an array; it was ignored.');
  for (const [i, item] of rawEdges.entries()) {
    if (!isRecord(item) || typeof item.source !== "string" || typeof item.target !== "string") {
      notes.push(`Edge at index ${i} has no string source/target; it was dropped.`);
      continue;
    }
    const edge: SpecEdge = { source: item.source, target: item.target };
    const c = item.condition;
    if (c === "true" || c === "false" || typeof c === "boolean") edge.condition = c;
    else if (c !== undefined && c !== null)
      notes.push(`Edge at index ${i} had an invalid condition ${JSON.stringify(c)}; it was dropped.`);
    edges.push(edge);
  }
  return { ok: true, workflow: { nodes, edges }, notes };
}

/** A fresh node id for a type: `start`/`end` when free, otherwise `<type>_<n>` with the smallest free n. */
export function freshNodeId(kind: string, taken: ReadonlySet<string>): string {
  if ((kind === "start" || kind === "end") && !taken.has(kind)) return kind;
  const base = kind.replace(/[^A-Za-z0-9_]/g, "_") || "node";
  for (let n = 1; ; n++) {
    const id = `${base}_${n}`;
    if (!taken.has(id)) return id;
  }
}

/** Config a node starts with when dropped from the palette. The start node declares one string input. */
export function initialConfig(kind: NodeType): Config {
  if (kind === "start") return { outputs: [{ name: "query", type: "string", required: true, default: "" }] };
  return {};
}

// ------------------------------------------------------------------------------------------------ references

/** Replaces node ids in every `{{id.field}}` inside a string, using extractTemplateRefs' offsets. */
export function renameTemplateRefs(text: string, rename: ReadonlyMap<string, string>): string {
  const { refs } = extractTemplateRefs(text);
  if (refs.length === 0) return text;
  let out = "";
  let last = 0;
  for (const ref of refs) {
    const to = rename.get(ref.nodeId);
    if (to === undefined) continue;
    const idAt = text.indexOf(ref.nodeId, ref.start + 2);
    out += text.slice(last, idAt) + to;
    last = idAt + ref.nodeId.length;
  }
  return out + text.slice(last);
}

function renameDeep(value: unknown, rename: ReadonlyMap<string, string>, depth = 0): unknown {
  if (typeof value === "string") return renameTemplateRefs(value, rename);
  if (depth > 50) return value;
  if (Array.isArray(value)) return value.map((v) => renameDeep(v, rename, depth + 1));
  if (isRecord(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameDeep(v, rename, depth + 1)]));
  return value;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A config with references to renamed nodes rewritten: templates anywhere in it, condition targets,
 * memory_save `extractFrom` and identifiers at the root of a CEL expression (outside string literals).
 */
export function renameRefsInConfig(kind: string, config: Config, rename: ReadonlyMap<string, string>): Config {
  if (rename.size === 0) return config;
  const before = JSON.stringify(config);
  const next = renameDeep(config, rename) as Config;
  if (kind === "condition") {
    for (const key of ["trueTarget", "falseTarget"] as const) {
      const v = next[key];
      if (typeof v === "string" && rename.has(v)) next[key] = rename.get(v);
    }
    if (typeof next.expression === "string") {
      let expr = next.expression;
      for (const [from, to] of rename) {
        // Split on string literals so only code parts are rewritten.
        const parts = expr.split(/("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/);
        const re = new RegExp(`(?<![A-Za-z0-9_.])${escapeRegExp(from)}(?![A-Za-z0-9_])`, "g");
        expr = parts.map((p, i) => (i % 2 === 1 ? p : p.replace(re, to))).join("");
      }
      next.expression = expr;
    }
  }
  if (kind === "memory_save" && typeof next.extractFrom === "string") {
    const [head, ...rest] = next.extractFrom.split(".");
    if (head && rename.has(head)) next.extractFrom = [rename.get(head), ...rest].join(".");
  }
  return JSON.stringify(next) === before ? config : next;
}

// ------------------------------------------------------------------------------------------------ copy/paste

export interface Clipboard {
  nodes: SpecNode[];
  edges: SpecEdge[];
}

/** The selected nodes and the edges between them, in spec shape. */
export function copySelection(
  nodes: readonly WfNode[],
  edges: readonly WfEdge[],
  selected: ReadonlySet<string>,
): Clipboard {
  const wf = toWorkflow(
    nodes.filter((n) => selected.has(n.id)),
    edges.filter((e) => selected.has(e.source) && selected.has(e.target)),
  );
  return structuredClone(wf);
}

/**
 * Clipboard content with fresh ids (references between pasted nodes follow the new ids) and positions
 * moved by `offset`.
 */
export function pasteClipboard(
  clip: Clipboard,
  taken: ReadonlySet<string>,
  offset: { x: number; y: number },
): SpecWorkflow {
  const used = new Set(taken);
  const rename = new Map<string, string>();
  for (const n of clip.nodes) {
    const id = freshNodeId(n.type, used);
    used.add(id);
    rename.set(n.id, id);
  }
  const nodes = clip.nodes.map((n) => ({
    id: rename.get(n.id) as string,
    type: n.type,
    config: renameRefsInConfig(n.type, structuredClone(n.config), rename),
    position: { x: n.position.x + offset.x, y: n.position.y + offset.y },
  }));
  const edges = clip.edges.map((e) => ({
    ...e,
    source: rename.get(e.source) ?? e.source,
    target: rename.get(e.target) ?? e.target,
  }));
  return { nodes, edges };
}

/** The nodes with exactly `ids` selected; nodes whose selection does not change keep their identity. */
export function withSelection<N extends { id: string; selected?: boolean }>(
  nodes: readonly N[],
  ids: ReadonlySet<string>,
): N[] {
  return nodes.map((n) => (ids.has(n.id) !== !!n.selected ? { ...n, selected: ids.has(n.id) } : n));
}

/** Renames one node everywhere: its id, edges and references in other nodes' configs. */
export function renameNode(
  nodes: readonly WfNode[],
  edges: readonly WfEdge[],
  from: string,
  to: string,
): { nodes: WfNode[]; edges: WfEdge[] } {
  const rename = new Map([[from, to]]);
  return {
    nodes: nodes.map((n) => {
      const config = renameRefsInConfig(n.data.kind, n.data.config, rename);
      if (n.id !== from && config === n.data.config) return n;
      const title = isNodeType(n.data.kind) ? NODE_CONTRACTS[n.data.kind].title : n.data.kind;
      const id = n.id === from ? to : n.id;
      return { ...n, id, ariaLabel: `${title} node ${id}`, data: { ...n.data, config } };
    }),
    edges: edges.map((e) =>
      e.source === from || e.target === from
        ? { ...e, source: e.source === from ? to : e.source, target: e.target === from ? to : e.target }
        : e,
    ),
  };
}

/** Stable JSON text of a workflow, for dirty checks and drafts. */
export function workflowKey(workflow: SpecWorkflow): string {
  return JSON.stringify(workflow);
}
