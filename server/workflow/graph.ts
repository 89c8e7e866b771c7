/**
 * Graph algorithms on a compact adjacency structure (CSR), all iterative so that 10,000-node chains
 * cannot overflow the call stack. Used by the validator; the runtime can reuse `topologicalOrder`.
 */

export interface Digraph {
  /** Number of vertices, 0..n-1. */
  n: number;
  /** Out-edges of v are `outTargets[outStart[v] .. outStart[v+1])`; `outEdge` gives the caller's edge number. */
  outStart: Int32Array;
  outTargets: Int32Array;
  outEdge: Int32Array;
  /** In-edges of v are `inSources[inStart[v] .. inStart[v+1])`. */
  inStart: Int32Array;
  inSources: Int32Array;
  inEdge: Int32Array;
}

/** Builds the adjacency of `n` vertices from parallel arrays of edge sources and targets. */
export function buildDigraph(n: number, sources: ArrayLike<number>, targets: ArrayLike<number>): Digraph {
  const m = sources.length;
  const outStart = new Int32Array(n + 1);
  const inStart = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    outStart[(sources[e] as number) + 1]!++;
    inStart[(targets[e] as number) + 1]!++;
  }
  for (let v = 0; v < n; v++) {
    outStart[v + 1]! += outStart[v]!;
    inStart[v + 1]! += inStart[v]!;
  }
  const outTargets = new Int32Array(m);
  const outEdge = new Int32Array(m);
  const inSources = new Int32Array(m);
  const inEdge = new Int32Array(m);
  const outFill = outStart.slice(0, n);
  const inFill = inStart.slice(0, n);
  for (let e = 0; e < m; e++) {
    const s = sources[e] as number;
    const t = targets[e] as number;
    const o = outFill[s]!++;
    outTargets[o] = t;
    outEdge[o] = e;
    const i = inFill[t]!++;
    inSources[i] = s;
    inEdge[i] = e;
  }
  return { n, outStart, outTargets, outEdge, inStart, inSources, inEdge };
}

export function outDegree(g: Digraph, v: number): number {
  return g.outStart[v + 1]! - g.outStart[v]!;
}

export function inDegree(g: Digraph, v: number): number {
  return g.inStart[v + 1]! - g.inStart[v]!;
}

/** Marks every vertex reachable from `roots` (roots included), following edges forwards or backwards. */
export function reachable(g: Digraph, roots: Iterable<number>, direction: "forward" | "backward" = "forward"): Uint8Array {
  const seen = new Uint8Array(g.n);
  const queue = new Int32Array(g.n);
  let head = 0;
  let tail = 0;
  for (const r of roots) {
    if (!seen[r]) {
      seen[r] = 1;
      queue[tail++] = r;
    }
  }
  const start = direction === "forward" ? g.outStart : g.inStart;
  const next = direction === "forward" ? g.outTargets : g.inSources;
  while (head < tail) {
    const v = queue[head++]!;
    for (let i = start[v]!, end = start[v + 1]!; i < end; i++) {
      const w = next[i]!;
      if (!seen[w]) {
        seen[w] = 1;
        queue[tail++] = w;
      }
    }
  }
  return seen;
}

export interface Components {
  /** Component number of each vertex. If u -> v crosses components then comp[u] > comp[v]. */
  comp: Int32Array;
  count: number;
  /** Size of each component. */
  size: Int32Array;
}

/** Strongly connected components (iterative Tarjan). Components come out sinks first. */
export function stronglyConnectedComponents(g: Digraph): Components {
  const { n, outStart, outTargets } = g;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  const callNode = new Int32Array(n);
  const callEdge = new Int32Array(n);
  const comp = new Int32Array(n).fill(-1);
  let sp = 0;
  let csp = 0;
  let counter = 0;
  let count = 0;
  const sizes: number[] = [];
  for (let s = 0; s < n; s++) {
    if (index[s] !== -1) continue;
    index[s] = low[s] = counter++;
    stack[sp++] = s;
    onStack[s] = 1;
    callNode[csp] = s;
    callEdge[csp++] = outStart[s]!;
    while (csp > 0) {
      const v = callNode[csp - 1]!;
      const e = callEdge[csp - 1]!;
      if (e < outStart[v + 1]!) {
        callEdge[csp - 1] = e + 1;
        const w = outTargets[e]!;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack[sp++] = w;
          onStack[w] = 1;
          callNode[csp] = w;
          callEdge[csp++] = outStart[w]!;
        } else if (onStack[w] && index[w]! < low[v]!) {
          low[v] = index[w]!;
        }
        continue;
      }
      csp--;
      if (low[v] === index[v]) {
        let size = 0;
        let w: number;
        do {
          w = stack[--sp]!;
          onStack[w] = 0;
          comp[w] = count;
          size++;
        } while (w !== v);
        sizes.push(size);
        count++;
      }
      if (csp > 0) {
        const u = callNode[csp - 1]!;
        if (low[v]! < low[u]!) low[u] = low[v]!;
      }
    }
  }
  return { comp, count, size: Int32Array.from(sizes) };
}

/** A topological order (Kahn), or null when the graph has a cycle. */
export function topologicalOrder(g: Digraph): number[] | null {
  const indeg = new Int32Array(g.n);
  for (let v = 0; v < g.n; v++) indeg[v] = inDegree(g, v);
  const order: number[] = [];
  for (let v = 0; v < g.n; v++) if (indeg[v] === 0) order.push(v);
  for (let head = 0; head < order.length; head++) {
    const v = order[head]!;
    for (let i = g.outStart[v]!, end = g.outStart[v + 1]!; i < end; i++) {
      const w = g.outTargets[i]!;
      if (--indeg[w]! === 0) order.push(w);
    }
  }
  return order.length === g.n ? order : null;
}

/**
 * Answers "is `a` an ancestor of `v`?" for a fixed set of candidate ancestors (the nodes that are
 * referenced), with one bitset per strongly connected component over just those candidates. Cost is
 * O(E * candidates / 32): linear when few nodes are referenced, which is the common case.
 */
export class AncestorIndex {
  private readonly words: number;
  private readonly bits: Uint32Array;
  private readonly slot: Map<number, number>;
  private readonly comps: Components;

  constructor(g: Digraph, candidates: Iterable<number>, comps: Components = stronglyConnectedComponents(g)) {
    this.comps = comps;
    this.slot = new Map();
    for (const c of candidates) if (!this.slot.has(c)) this.slot.set(c, this.slot.size);
    this.words = Math.ceil(this.slot.size / 32);
    const { comp, count } = comps;
    const W = this.words;
    this.bits = new Uint32Array(count * W);
    if (W === 0) return;
    // Members of each component, by counting sort.
    const start = new Int32Array(count + 1);
    for (let v = 0; v < g.n; v++) start[comp[v]! + 1]!++;
    for (let c = 0; c < count; c++) start[c + 1]! += start[c]!;
    const fill = start.slice(0, count);
    const members = new Int32Array(g.n);
    for (let v = 0; v < g.n; v++) members[fill[comp[v]!]!++] = v;
    const bits = this.bits;
    // Sources first: predecessors in other components have larger numbers and are done already.
    for (let c = count - 1; c >= 0; c--) {
      const base = c * W;
      const cyclic = start[c + 1]! - start[c]! > 1;
      for (let m = start[c]!; m < start[c + 1]!; m++) {
        const v = members[m]!;
        if (cyclic) {
          const s = this.slot.get(v);
          if (s !== undefined) bits[base + (s >>> 5)]! |= 1 << (s & 31);
        }
        for (let i = g.inStart[v]!, end = g.inStart[v + 1]!; i < end; i++) {
          const u = g.inSources[i]!;
          const cu = comp[u]!;
          if (cu === c) continue;
          const ubase = cu * W;
          for (let k = 0; k < W; k++) bits[base + k]! |= bits[ubase + k]!;
          const s = this.slot.get(u);
          if (s !== undefined) bits[base + (s >>> 5)]! |= 1 << (s & 31);
        }
      }
    }
  }

  /** True when there is a path of at least one edge from `ancestor` to `v`. `ancestor` must be a candidate. */
  isAncestor(ancestor: number, v: number): boolean {
    const s = this.slot.get(ancestor);
    if (s === undefined) return false;
    const c = this.comps.comp[v]!;
    return ((this.bits[c * this.words + (s >>> 5)]! >>> (s & 31)) & 1) === 1;
  }
}
