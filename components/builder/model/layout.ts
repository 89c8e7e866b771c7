/**
 * Placement: auto-layout with elkjs (layered, left to right; loaded on demand so the canvas bundle stays small) and
 * the free spot for a node added from the palette.
 */
import { NODE_HEIGHT, NODE_WIDTH, type WfEdge, type WfNode } from "./workflow";

type ElkLike = {
  layout(graph: unknown): Promise<{ children?: { id: string; x?: number; y?: number }[] }>;
};

let elkPromise: Promise<ElkLike> | null = null;

function loadElk(): Promise<ElkLike> {
  elkPromise ??= import("elkjs/lib/elk.bundled.js").then((m) => new m.default() as unknown as ElkLike);
  return elkPromise;
}

/** New positions for every node; edges to unknown nodes are ignored. */
export async function layoutPositions(
  nodes: readonly WfNode[],
  edges: readonly WfEdge[],
): Promise<Map<string, { x: number; y: number }>> {
  const elk = await loadElk();
  const ids = new Set(nodes.map((n) => n.id));
  // Branches of a condition node keep their order (true above false).
  const ordered = [...edges].sort((a, b) => Number(a.sourceHandle === "false") - Number(b.sourceHandle === "false"));
  const graph = {
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "RIGHT",
      "elk.spacing.nodeNode": "48",
      "elk.layered.spacing.nodeNodeBetweenLayers": "96",
      "elk.layered.spacing.edgeNodeBetweenLayers": "32",
      "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
      "elk.layered.considerModelOrder.strategy": "NODES_AND_EDGES",
      "elk.layered.crossingMinimization.forceNodeModelOrder": "false",
    },
    children: nodes.map((n) => ({
      id: n.id,
      width: n.measured?.width ?? NODE_WIDTH,
      height: n.measured?.height ?? NODE_HEIGHT,
    })),
    edges: ordered
      .filter((e) => ids.has(e.source) && ids.has(e.target) && e.source !== e.target)
      .map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  };
  const result = await elk.layout(graph);
  const out = new Map<string, { x: number; y: number }>();
  for (const c of result.children ?? []) out.set(c.id, { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) });
  return out;
}

/** The spot nearest to `want` (below/above first, then sideways) where a new node overlaps no other node. */
export function freeSpot(want: { x: number; y: number }, nodes: readonly WfNode[]): { x: number; y: number } {
  const rects = nodes.map((n) => ({
    x: n.position.x,
    y: n.position.y,
    w: n.measured?.width ?? NODE_WIDTH,
    h: n.measured?.height ?? NODE_HEIGHT,
  }));
  const gap = 24;
  const free = (p: { x: number; y: number }) =>
    !rects.some(
      (r) =>
        p.x < r.x + r.w + gap && p.x + NODE_WIDTH + gap > r.x && p.y < r.y + r.h + gap && p.y + NODE_HEIGHT + gap > r.y,
    );
  const dy = NODE_HEIGHT + gap;
  const dx = NODE_WIDTH + gap;
  for (let ring = 0; ring < 12; ring++) {
    for (const [i, j] of [
      [0, ring],
      [0, -ring],
      [ring, 0],
      [-ring, 0],
      [ring, ring],
      [-ring, ring],
      [ring, -ring],
      [-ring, -ring],
    ] as const) {
      const p = { x: want.x + i * dx, y: want.y + j * dy };
      if (free(p)) return p;
    }
  }
  return want;
}
