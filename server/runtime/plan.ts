/**
 * Compiles a workflow once into an execution plan: configs parsed with the contract (defaults filled in), the
 * topological order, edges per node and the branch of each edge leaving a condition node. Plans are cached per
 * workflow object (WeakMap), so repeated runs of the same loaded workflow skip this work.
 */
import {
  buildDigraph,
  getContract,
  isNodeType,
  topologicalOrder,
  type NodeType,
  type Workflow,
  type WorkflowNode,
} from "../workflow";
import { RuntimeError } from "./errors";

export type Branch = "true" | "false";

export type PlanEdge = { source: number; target: number; branch: Branch | null };

export type PlanNode = {
  index: number;
  id: string;
  type: NodeType;
  raw: WorkflowNode;
  /** The config parsed by the contract (defaults applied); null when it does not parse. */
  config: Record<string, unknown> | null;
  configError?: string;
  /** Indexes into `Plan.edges`. */
  incoming: number[];
  outgoing: number[];
};

export type Plan = { nodes: PlanNode[]; edges: PlanEdge[]; order: number[]; ids: Map<string, number> };

const cache = new WeakMap<Workflow, Plan>();

function edgeBranch(condition: unknown): Branch | null {
  if (condition === true || condition === "true") return "true";
  if (condition === false || condition === "false") return "false";
  return null;
}

function compile(workflow: Workflow): Plan {
  if (!workflow || !Array.isArray(workflow.nodes) || !Array.isArray(workflow.edges)) {
    throw new RuntimeError("WORKFLOW_INVALID", "The workflow must have nodes and edges arrays");
  }
  const ids = new Map<string, number>();
  const nodes: PlanNode[] = workflow.nodes.map((raw, index) => {
    if (!isNodeType(raw.type))
      throw new RuntimeError("WORKFLOW_INVALID", `Node ${String(raw.id)} has an unknown type ${String(raw.type)}`);
    if (ids.has(raw.id)) throw new RuntimeError("WORKFLOW_INVALID", `Two nodes have the id ${raw.id}`);
    ids.set(raw.id, index);
    const parsed = getContract(raw.type).configSchema.safeParse(raw.config ?? {});
    const node: PlanNode = { index, id: raw.id, type: raw.type, raw, config: null, incoming: [], outgoing: [] };
    if (parsed.success) node.config = parsed.data as Record<string, unknown>;
    else node.configError = parsed.error.issues.map((i) => `${i.path.join(".") || "config"}: ${i.message}`).join("; ");
    return node;
  });
  if (!nodes.some((n) => n.type === "start"))
    throw new RuntimeError("WORKFLOW_INVALID", "The workflow has no start node");

  const edges: PlanEdge[] = [];
  const seen = new Set<string>();
  for (const e of workflow.edges) {
    const source = ids.get(e.source);
    const target = ids.get(e.target);
    if (source === undefined || target === undefined)
      throw new RuntimeError("WORKFLOW_INVALID", `An edge ${e.source} -> ${e.target} names a node that does not exist`);
    const from = nodes[source] as PlanNode;
    let branch: Branch | null = null;
    if (from.type === "condition") {
      branch = edgeBranch(e.condition);
      if (branch === null) {
        const cfg = (from.config ?? {}) as { trueTarget?: string; falseTarget?: string };
        if (cfg.trueTarget === e.target) branch = "true";
        else if (cfg.falseTarget === e.target) branch = "false";
      }
    }
    const key = `${source}>${target}>${branch ?? ""}`;
    if (seen.has(key)) continue; // duplicate edges are ignored (the validator warns)
    seen.add(key);
    const index = edges.push({ source, target, branch }) - 1;
    from.outgoing.push(index);
    (nodes[target] as PlanNode).incoming.push(index);
  }
  const graph = buildDigraph(
    nodes.length,
    edges.map((e) => e.source),
    edges.map((e) => e.target),
  );
  const order = topologicalOrder(graph);
  if (!order) throw new RuntimeError("WORKFLOW_INVALID", "The workflow has a cycle");
  return { nodes, edges, order, ids };
}

export function planFor(workflow: Workflow): Plan {
  let plan = cache.get(workflow);
  if (!plan) {
    plan = compile(workflow);
    cache.set(workflow, plan);
  }
  return plan;
}
