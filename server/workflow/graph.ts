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
export function reachable(
  g: Digraph,
  roots: Iterable<number>,
  direction: "forward" | "backward" = "forward",
): Uint8Array {
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

/** Candidates per bitset pass: bounds memory to components x 64 words (2.5 MB at 10,000 nodes). */
const CHUNK = 2048;

/**
 * Answers a batch of "is there a path of at least one edge from `ancestors[i]` to `vertices[i]`?".
 * Cheap cases first: component order rejects most negatives (an edge u -> v across components has
 * comp[u] > comp[v]), the same cyclic component or a direct edge accepts. The rest uses bitsets over
 * the remaining candidate ancestors, one per component, filled in topological order, in chunks of
 * 2048 candidates: O(E x candidates / 32) time, linear when few nodes are referenced from afar.
 */
export function ancestorQueries(
  g: Digraph,
  ancestors: ArrayLike<number>,
  vertices: ArrayLike<number>,
  comps: Components = stronglyConnectedComponents(g),
): Uint8Array {
  const { comp, count, size } = comps;
  const q = ancestors.length;
  const result = new Uint8Array(q);
  const open: number[] = [];
  for (let i = 0; i < q; i++) {
    const a = ancestors[i] as number;
    const v = vertices[i] as number;
    const ca = comp[a]!;
    const cv = comp[v]!;
    if (ca < cv) continue; // a comes after v in topological order
    if (ca === cv) {
      result[i] = size[ca]! > 1 ? 1 : 0; // same component: a path exists iff it is a cycle
      continue;
    }
    let direct = false;
    const end = Math.min(g.inStart[v + 1]!, g.inStart[v]! + 32);
    for (let e = g.inStart[v]!; e < end; e++) {
      if (g.inSources[e] === a) {
        direct = true;
        break;
      }
    }
    if (direct) result[i] = 1;
    else open.push(i);
  }
  if (open.length === 0) return result;

  // Members of each component (counting sort), for the bitset passes.
  const start = new Int32Array(count + 1);
  for (let v = 0; v < g.n; v++) start[comp[v]! + 1]!++;
  for (let c = 0; c < count; c++) start[c + 1]! += start[c]!;
  const fill = start.slice(0, count);
  const members = new Int32Array(g.n);
  for (let v = 0; v < g.n; v++) members[fill[comp[v]!]!++] = v;

  const candidates = [...new Set(open.map((i) => ancestors[i] as number))];
  const slot = new Int32Array(g.n).fill(-1);
  for (let from = 0; from < candidates.length; from += CHUNK) {
    const chunk = candidates.slice(from, from + CHUNK);
    slot.fill(-1);
    chunk.forEach((a, k) => (slot[a] = k));
    const W = Math.ceil(chunk.length / 32);
    const bits = new Uint32Array(count * W);
    // Sources first: predecessors in other components have larger numbers and are done already.
    for (let c = count - 1; c >= 0; c--) {
      const base = c * W;
      // In a cycle every member reaches every member, itself included.
      const cyclic = size[c]! > 1;
      for (let m = start[c]!; m < start[c + 1]!; m++) {
        const v = members[m]!;
        const own = cyclic ? slot[v]! : -1;
        if (own >= 0) bits[base + (own >>> 5)]! |= 1 << (own & 31);
        for (let e = g.inStart[v]!, end = g.inStart[v + 1]!; e < end; e++) {
          const u = g.inSources[e]!;
          const cu = comp[u]!;
          if (cu === c) continue;
          const ubase = cu * W;
          for (let k = 0; k < W; k++) bits[base + k]! |= bits[ubase + k]!;
          const s = slot[u]!;
          if (s >= 0) bits[base + (s >>> 5)]! |= 1 << (s & 31);
        }
      }
    }
    for (const i of open) {
      const s = slot[ancestors[i] as number]!;
      if (s < 0) continue;
      const c = comp[vertices[i] as number]!;
      result[i] = (bits[c * W + (s >>> 5)]! >>> (s & 31)) & 1;
    }
  }
  return result;
}
