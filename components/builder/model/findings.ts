/**
 * Where each validation finding belongs on the canvas: a node (badge), an edge (marked), a config field of the
 * side panel, or the workflow as a whole. Findings come from the server (`builder.validate`); their `path` is a
 * JSON pointer into the request `{workflow}` that was sent, so indexes are resolved against the snapshot sent.
 */
import type { Finding, ValidationResult } from "@/server/workflow/schema";

export type { Finding, ValidationResult };

/** Config-level findings with no field of their own (a missing any-of group) are filed under this key. */
export const REQUIRED_GROUP_KEY = "@required";

export interface NodeFindings {
  errors: number;
  warnings: number;
  /** Messages, errors first. */
  messages: string[];
}

export interface LocatedFinding extends Finding {
  /** Stable key for lists. */
  key: string;
  /** Canvas node the finding belongs to, if any. */
  node?: string;
  /** Canvas edge id, if any. */
  edge?: string;
  /** Top-level config key (or REQUIRED_GROUP_KEY), if the finding points into the node's config. */
  field?: string;
  /** Path below the field, e.g. ["1", "name"] for start outputs[1].name. */
  subPath?: string[];
}

export interface IndexedFindings {
  valid: boolean;
  errors: number;
  warnings: number;
  all: LocatedFinding[];
  byNode: Map<string, NodeFindings>;
  byEdge: Map<string, "error" | "warning">;
  /** `${nodeId}\u0000${field}` -> findings */
  byField: Map<string, LocatedFinding[]>;
}

export const EMPTY_FINDINGS: IndexedFindings = {
  valid: true,
  errors: 0,
  warnings: 0,
  all: [],
  byNode: new Map(),
  byEdge: new Map(),
  byField: new Map(),
};

export function fieldKey(nodeId: string, field: string): string {
  return `${nodeId}\u0000${field}`;
}

function unescapePointer(part: string): string {
  return part.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Splits `/workflow/nodes/3/config/headers/X-Id` into its parts (after the `/workflow` prefix). */
export function parsePointer(path: string): string[] {
  const parts = path.split("/").slice(1).map(unescapePointer);
  return parts[0] === "workflow" ? parts.slice(1) : parts;
}

/**
 * Locates every finding. `nodeIds[i]` / `edgeIds[k]` are the canvas ids of the nodes and edges at those
 * indexes in the workflow that was validated.
 */
export function indexFindings(
  result: ValidationResult,
  nodeIds: readonly string[],
  edgeIds: readonly string[],
): IndexedFindings {
  const all: LocatedFinding[] = [];
  const byNode = new Map<string, NodeFindings>();
  const byEdge = new Map<string, "error" | "warning">();
  const byField = new Map<string, LocatedFinding[]>();
  const findings = [...result.errors, ...result.warnings];
  findings.forEach((f, i) => {
    const parts = parsePointer(f.path);
    const located: LocatedFinding = { ...f, key: `${i}:${f.code}:${f.path}` };
    if (parts[0] === "nodes" && parts[1] !== undefined && /^\d+$/.test(parts[1])) {
      located.node = nodeIds[Number(parts[1])] ?? f.nodeId;
      if (parts[2] === "config") {
        if (parts[3] !== undefined) {
          located.field = parts[3];
          located.subPath = parts.slice(4);
        } else if (f.code === "NODE_CONFIG_MISSING_REQUIRED") {
          located.field = REQUIRED_GROUP_KEY;
        }
      }
    } else if (parts[0] === "edges" && parts[1] !== undefined && /^\d+$/.test(parts[1])) {
      located.edge = edgeIds[Number(parts[1])];
      if (f.nodeId !== undefined) located.node = f.nodeId;
    } else if (f.nodeId !== undefined) {
      located.node = f.nodeId;
    }
    if (located.edge === undefined && f.edgeIndex !== undefined) located.edge = edgeIds[f.edgeIndex];
    all.push(located);

    if (located.node !== undefined) {
      const entry = byNode.get(located.node) ?? { errors: 0, warnings: 0, messages: [] };
      if (f.severity === "error") entry.errors += 1;
      else entry.warnings += 1;
      entry.messages.push(f.message);
      byNode.set(located.node, entry);
      if (located.field !== undefined) {
        const k = fieldKey(located.node, located.field);
        const list = byField.get(k) ?? [];
        list.push(located);
        byField.set(k, list);
      }
    }
    if (located.edge !== undefined) {
      const prev = byEdge.get(located.edge);
      if (prev !== "error") byEdge.set(located.edge, f.severity);
    }
  });
  return {
    valid: result.valid,
    errors: result.errors.length,
    warnings: result.warnings.length,
    all,
    byNode,
    byEdge,
    byField,
  };
}

/** "valid", "2 errors, 1 warning", "1 warning". */
export function statusText(errors: number, warnings: number): string {
  if (errors === 0 && warnings === 0) return "Valid";
  const parts: string[] = [];
  if (errors > 0) parts.push(`${errors} error${errors === 1 ? "" : "s"}`);
  if (warnings > 0) parts.push(`${warnings} warning${warnings === 1 ? "" : "s"}`);
  return parts.join(", ");
}

export function sameNodeFindings(a: NodeFindings | undefined, b: NodeFindings | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (
    a.errors === b.errors &&
    a.warnings === b.warnings &&
    a.messages.length === b.messages.length &&
    a.messages.every((m, i) => m === b.messages[i])
  );
}
