/** Tiny JSON path helpers (pure): `$.a.b[0].c` or `a.b.0.c`. */
export function parsePath(path: string): Array<string | number> {
  const parts: Array<string | number> = [];
  const body = path.replace(/^\$/, "");
  const re = /\[(\d+)\]|\.?([^.[\]]+)/g;
  for (const m of body.matchAll(re)) {
    if (m[1] !== undefined) parts.push(Number(m[1]));
    else if (m[2] !== undefined) parts.push(/^\d+$/.test(m[2]) ? Number(m[2]) : m[2]);
  }
  return parts;
}

export function getPath(value: unknown, path: string): { found: boolean; value: unknown } {
  let cur: unknown = value;
  for (const part of parsePath(path)) {
    if (cur === null || cur === undefined) return { found: false, value: undefined };
    if (typeof part === "number") {
      if (!Array.isArray(cur) || part >= cur.length) return { found: false, value: undefined };
      cur = cur[part];
    } else {
      if (typeof cur !== "object" || Array.isArray(cur) || !(part in (cur as Record<string, unknown>)))
        return { found: false, value: undefined };
      cur = (cur as Record<string, unknown>)[part];
    }
  }
  return { found: true, value: cur };
}

export function isEmptyValue(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === "string") return v.trim() === "";
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === "object") return Object.keys(v as object).length === 0;
  return false;
}

/** Deep equality for JSON values. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** The first array found breadth-first (depth <= 3): the payload's item list (e.g. goods_list). */
export function firstArray(value: unknown, depth = 3): { path: string; items: unknown[] } | null {
  const queue: Array<{ v: unknown; path: string; d: number }> = [{ v: value, path: "$", d: 0 }];
  while (queue.length) {
    const { v, path, d } = queue.shift()!;
    if (Array.isArray(v)) return { path, items: v };
    if (v && typeof v === "object" && d < depth) {
      for (const [k, child] of Object.entries(v as Record<string, unknown>))
        queue.push({ v: child, path: `${path}.${k}`, d: d + 1 });
    }
  }
  return null;
}

const NAME_KEY = /(^|_)(name|title|label)$|^(name|title|label)|名称|名字|标题/i;

/** Item names found in a value: string fields named like name/title/label of objects inside arrays (depth <= 5). */
export function itemNames(value: unknown, depth = 5): string[] {
  const out: string[] = [];
  const walk = (v: unknown, d: number, inArray: boolean) => {
    if (d > depth || v === null || v === undefined) return;
    if (Array.isArray(v)) {
      for (const x of v) {
        if (typeof x === "string" && inArray !== undefined && x.trim()) out.push(x.trim());
        else walk(x, d + 1, true);
      }
      return;
    }
    if (typeof v === "object") {
      for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
        if (inArray && typeof child === "string" && NAME_KEY.test(k) && child.trim()) out.push(child.trim());
        else if (typeof child === "object") walk(child, d + 1, false);
      }
    }
  };
  walk(value, 0, false);
  return [...new Set(out)];
}

/** All arrays in a value (depth <= 4), to tell "the query returned no items" from "no list at all". */
export function allArrays(value: unknown, depth = 4): unknown[][] {
  const out: unknown[][] = [];
  const walk = (v: unknown, d: number) => {
    if (d > depth || !v || typeof v !== "object") return;
    if (Array.isArray(v)) {
      out.push(v);
      for (const x of v) walk(x, d + 1);
      return;
    }
    for (const child of Object.values(v as Record<string, unknown>)) walk(child, d + 1);
  };
  walk(value, 0);
  return out;
}
