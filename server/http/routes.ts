import { allowHeader } from "./endpoint";
import { ENDPOINTS } from "./endpoints";

/**
 * The REST routes by path template with the methods each serves, from the one endpoint list: what an `Allow` header
 * says for a path. Literal segments win over parameters (`/versions/latest` before `/versions/{version}`), as in
 * Next's routing.
 */
type Route = { template: string; regex: RegExp; params: number; methods: Set<string> };

let routes: Route[] | undefined;

function table(): Route[] {
  if (routes) return routes;
  const byPath = new Map<string, Route>();
  for (const e of ENDPOINTS) {
    let r = byPath.get(e.path);
    if (!r) {
      const source = e.path
        .split("/")
        .map((seg) => (/^\{[^}]+\}$/.test(seg) ? "[^/]+" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
        .join("/");
      r = {
        template: e.path,
        regex: new RegExp(`^${source}/?$`),
        params: (e.path.match(/\{/g) ?? []).length,
        methods: new Set(),
      };
      byPath.set(e.path, r);
    }
    r.methods.add(e.method);
  }
  routes = [...byPath.values()].sort((a, b) => a.params - b.params);
  return routes;
}

/** The methods the route at `pathname` serves (OpenAPI path template and methods), or null for no REST route. */
export function routeFor(pathname: string): { template: string; methods: string[] } | null {
  const route = table().find((r) => r.regex.test(pathname));
  return route ? { template: route.template, methods: [...route.methods] } : null;
}

/** The `Allow` header for `pathname`: its route's methods (as `otherMethods` answers them), or null for no route. */
export function allowFor(pathname: string): string | null {
  const route = routeFor(pathname);
  return route ? allowHeader(route.methods) : null;
}
