/**
 * Unsaved canvas edits kept in localStorage so they survive a reload.
 * Keys: `flowbench:draft:agent:<agentId>` for edits on a saved agent, `flowbench:draft:new:<draftId>` for
 * an agent that has not been saved yet (blank, recipe or imported).
 */
import type { SpecWorkflow } from "./workflow";

const PREFIX = "flowbench:draft:";

export interface Draft {
  name: string;
  workflow: SpecWorkflow;
  /** The saved version the edits started from (agent drafts). */
  baseVersion?: number;
  /** Where a new draft came from: blank, a recipe name, or an imported file name. */
  origin?: string;
  /** Written by an import and not opened yet: the canvas shows the import notes instead of "restored". */
  fresh?: boolean;
  notices?: string[];
  updatedAt: string;
}

export type DraftKey = { kind: "agent"; agentId: string } | { kind: "new"; draftId: string };

export function draftStorageKey(key: DraftKey): string {
  return key.kind === "agent" ? `${PREFIX}agent:${key.agentId}` : `${PREFIX}new:${key.draftId}`;
}

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

function isDraft(value: unknown): value is Draft {
  if (typeof value !== "object" || value === null) return false;
  const d = value as Record<string, unknown>;
  const wf = d.workflow as Record<string, unknown> | undefined;
  return typeof d.name === "string" && !!wf && Array.isArray(wf.nodes) && Array.isArray(wf.edges);
}

export function readDraft(key: DraftKey): Draft | null {
  const raw = storage()?.getItem(draftStorageKey(key));
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return isDraft(value) ? value : null;
  } catch {
    return null;
  }
}

/** Returns false when the browser refused (quota, private mode). */
export function writeDraft(key: DraftKey, draft: Omit<Draft, "updatedAt">): boolean {
  try {
    storage()?.setItem(draftStorageKey(key), JSON.stringify({ ...draft, updatedAt: new Date().toISOString() }));
    return true;
  } catch {
    return false;
  }
}

export function removeDraft(key: DraftKey): void {
  storage()?.removeItem(draftStorageKey(key));
}

export function newDraftId(): string {
  const rnd =
    typeof crypto !== "undefined" && "randomUUID" in crypto
      ? crypto.randomUUID().slice(0, 8)
      : Math.random().toString(36).slice(2, 10);
  return `${Date.now().toString(36)}-${rnd}`;
}

/** Every draft in this browser, newest first. */
export function listDrafts(): { key: DraftKey; draft: Draft }[] {
  const s = storage();
  if (!s) return [];
  const out: { key: DraftKey; draft: Draft }[] = [];
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i);
    if (!k?.startsWith(PREFIX)) continue;
    const rest = k.slice(PREFIX.length);
    const key: DraftKey | null = rest.startsWith("agent:")
      ? { kind: "agent", agentId: rest.slice(6) }
      : rest.startsWith("new:")
        ? { kind: "new", draftId: rest.slice(4) }
        : null;
    if (!key) continue;
    const draft = readDraft(key);
    if (draft) out.push({ key, draft });
  }
  return out.sort((a, b) => b.draft.updatedAt.localeCompare(a.draft.updatedAt));
}
