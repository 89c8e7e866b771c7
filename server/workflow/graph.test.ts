import { describe, expect, it } from "vitest";
import { ancestorQueries, buildDigraph, reachable, stronglyConnectedComponents, topologicalOrder } from "./graph";

/** Small deterministic PRNG so failures reproduce. */
function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

function bruteReach(edges: Array<[number, number]>, from: number): Set<number> {
  const seen = new Set<number>();
  const stack = edges.filter(([s]) => s === from).map(([, t]) => t);
  while (stack.length) {
    const v = stack.pop()!;
    if (seen.has(v)) continue;
    seen.add(v);
    for (const [s, t] of edges) if (s === v) stack.push(t);
  }
  return seen;
}

describe("graph", () => {
  it("finds components sinks-first and a topological order", () => {
    const g = buildDigraph(5, [0, 1, 2, 3], [1, 2, 1, 4]);
    const c = stronglyConnectedComponents(g);
    expect(c.comp[1]).toBe(c.comp[2]);
    expect(c.size[c.comp[1]!]).toBe(2);
    expect(c.comp[0]! > c.comp[1]!).toBe(true);
    expect(topologicalOrder(g)).toBeNull();
    expect(topologicalOrder(buildDigraph(3, [0, 1], [1, 2]))).toEqual([0, 1, 2]);
  });

  it("reachable works both ways", () => {
    const g = buildDigraph(4, [0, 1], [1, 2]);
    expect([...reachable(g, [0])]).toEqual([1, 1, 1, 0]);
    expect([...reachable(g, [2], "backward")]).toEqual([1, 1, 1, 0]);
  });

  it("ancestorQueries matches brute force on random graphs (with cycles)", () => {
    const random = rng(42);
    for (let round = 0; round < 150; round++) {
      const n = 2 + Math.floor(random() * 60);
      const edges: Array<[number, number]> = [];
      const m = Math.floor(random() * n * 2);
      for (let i = 0; i < m; i++) {
        const s = Math.floor(random() * n);
        const t = Math.floor(random() * n);
        if (s !== t) edges.push([s, t]);
      }
      const g = buildDigraph(
        n,
        edges.map((e) => e[0]),
        edges.map((e) => e[1]),
      );
      const a: number[] = [];
      const v: number[] = [];
      for (let x = 0; x < n; x++) for (let y = 0; y < n; y++) a.push(x), v.push(y);
      const got = ancestorQueries(g, a, v);
      const reach = Array.from({ length: n }, (_, x) => bruteReach(edges, x));
      // one comparison of every answer per round (180,000 single expects took 45 s under load): a diff names the pair
      const answers = (list: ArrayLike<number>) => a.map((x, i) => `${x} -> ${v[i]}: ${list[i]}`);
      expect(answers(got), `round ${round}`).toEqual(answers(a.map((x, i) => (reach[x]!.has(v[i]!) ? 1 : 0))));
    }
  });

  it("ancestorQueries handles more candidates than one bitset chunk", () => {
    const n = 5000;
    const src = Array.from({ length: n - 1 }, (_, i) => i);
    const g = buildDigraph(
      n,
      src,
      src.map((i) => i + 1),
    );
    // Each node asks about the node two steps back: no direct edge, so every query needs bitsets.
    const a = Array.from({ length: n - 2 }, (_, i) => i);
    const v = a.map((i) => i + 2);
    expect(ancestorQueries(g, a, v).every((x) => x === 1)).toBe(true);
    expect(ancestorQueries(g, v, a).every((x) => x === 0)).toBe(true);
  });
});
