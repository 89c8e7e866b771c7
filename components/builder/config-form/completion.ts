/**
 * `{{` autocompletion for template fields (and identifier completion for CEL conditions): offers the output
 * fields of the nodes upstream of the edited node, as NODE_CONTRACTS[type].outputs(config) defines them. Pure,
 * so it is unit-tested without a browser; the CodeMirror editor only adapts the result.
 */
import { NODE_CONTRACTS, isNodeType } from "@/server/workflow/contract";
import { extractTemplateRefs, isTemplateNodeId } from "@/server/workflow/templates";
import type { SpecWorkflow } from "../model/workflow";

export interface TemplateOption {
  nodeId: string;
  nodeType: string;
  field: string;
  /** `nodeId.field`, what goes between the braces. */
  label: string;
  /** Hops from the edited node (1 = direct parent). */
  distance: number;
}

/** The nodes upstream of `nodeId` (its ancestors along edges) with their distance in hops, nearest first. */
export function upstreamWithDistance(
  workflow: Pick<SpecWorkflow, "edges">,
  nodeId: string,
): { id: string; distance: number }[] {
  const parents = new Map<string, string[]>();
  for (const e of workflow.edges) {
    const list = parents.get(e.target) ?? [];
    list.push(e.source);
    parents.set(e.target, list);
  }
  const seen = new Set<string>([nodeId]);
  const order: { id: string; distance: number }[] = [];
  let frontier = [nodeId];
  for (let distance = 1; frontier.length > 0; distance++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const p of parents.get(id) ?? []) {
        if (seen.has(p)) continue;
        seen.add(p);
        order.push({ id: p, distance });
        next.push(p);
      }
    }
    frontier = next;
  }
  return order;
}

/** Ids of the nodes upstream of `nodeId`, nearest first. */
export function upstreamNodeIds(workflow: Pick<SpecWorkflow, "edges">, nodeId: string): string[] {
  return upstreamWithDistance(workflow, nodeId).map((u) => u.id);
}

/** Every `{{node.field}}` the node may use: output fields of its upstream nodes, nearest node first. */
export function templateOptions(workflow: SpecWorkflow, nodeId: string): TemplateOption[] {
  const byId = new Map(workflow.nodes.map((n) => [n.id, n] as const));
  const options: TemplateOption[] = [];
  for (const { id, distance } of upstreamWithDistance(workflow, nodeId)) {
    const node = byId.get(id);
    if (!node || !isNodeType(node.type) || !isTemplateNodeId(id)) continue;
    for (const field of NODE_CONTRACTS[node.type].outputs(node.config)) {
      options.push({ nodeId: id, nodeType: node.type, field, label: `${id}.${field}`, distance });
    }
  }
  return options;
}

export interface CompletionItem {
  label: string;
  /** Text inserted in place of [from, to). */
  apply: string;
  detail: string;
}

export interface CompletionResult {
  from: number;
  to: number;
  /** What was typed after `{{` so far. */
  query: string;
  items: CompletionItem[];
}

const WORD = /[A-Za-z0-9_.-]/;

/**
 * The open template around the cursor: `{{` before `pos`, not escaped (`\{{`), not closed before `pos`, with
 * only name characters typed since. Null when the cursor is not inside an unfinished template.
 */
export function templateContext(
  text: string,
  pos: number,
): { from: number; to: number; query: string; closed: boolean } | null {
  if (pos < 2) return null;
  const open = text.lastIndexOf("{{", pos - 2);
  if (open < 0) return null;
  if (open > 0 && text[open - 1] === "\\") return null;
  const typed = text.slice(open + 2, pos);
  const m = /^(\s*)([A-Za-z0-9_.-]*)$/.exec(typed);
  if (!m) return null;
  const from = open + 2 + (m[1]?.length ?? 0);
  let to = pos;
  while (to < text.length && WORD.test(text[to] as string)) to++;
  const closed = /^\s*\}\}/.test(text.slice(to));
  return { from, to, query: m[2] ?? "", closed };
}

/** Completion for the cursor at `pos` in a template field, or null when not inside `{{`. */
export function completeTemplate(
  text: string,
  pos: number,
  options: readonly TemplateOption[],
): CompletionResult | null {
  const ctx = templateContext(text, pos);
  if (!ctx) return null;
  const q = ctx.query.toLowerCase();
  const ranked = options
    .filter((o) => q === "" || o.label.toLowerCase().includes(q))
    .sort((a, b) => Number(!b.label.toLowerCase().startsWith(q)) - Number(!a.label.toLowerCase().startsWith(q)));
  return {
    from: ctx.from,
    to: ctx.to,
    query: ctx.query,
    items: ranked.map((o) => ({
      label: o.label,
      apply: ctx.closed ? o.label : `${o.label}}}`,
      detail: NODE_CONTRACTS[o.nodeType as keyof typeof NODE_CONTRACTS]?.title ?? o.nodeType,
    })),
  };
}

const CEL_IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Identifier completion in a CEL condition: `node.field` for upstream nodes whose id is a CEL identifier. */
export function completeExpression(
  text: string,
  pos: number,
  options: readonly TemplateOption[],
  explicit = false,
): CompletionResult | null {
  const before = text.slice(0, pos);
  const m = /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]*)?$/.exec(before);
  if (!m && !explicit) return null;
  // Not inside a string literal: an even number of quotes before the cursor.
  const quotes = (before.match(/(?<!\\)["']/g) ?? []).length;
  if (quotes % 2 === 1) return null;
  const query = m?.[0] ?? "";
  const from = pos - query.length;
  const q = query.toLowerCase();
  const items = options
    .filter(
      (o) =>
        CEL_IDENT.test(o.nodeId) &&
        (q === "" || o.label.toLowerCase().startsWith(q) || o.label.toLowerCase().includes(q)),
    )
    .map((o) => ({
      label: o.label,
      apply: o.label,
      detail: NODE_CONTRACTS[o.nodeType as keyof typeof NODE_CONTRACTS]?.title ?? o.nodeType,
    }));
  if (items.length === 0) return null;
  return { from, to: pos, query, items };
}

/** References in a text that do not name an offered option (for inline hints); uses the server's parser. */
export function unknownRefs(text: string, options: readonly TemplateOption[]): string[] {
  const offered = new Set(options.map((o) => o.label));
  return extractTemplateRefs(text)
    .refs.map((r) => `${r.nodeId}.${r.field}`)
    .filter((label) => !offered.has(label));
}
