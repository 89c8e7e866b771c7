"use client";

/**
 * Drafts: 300 ms after a change (content, a move or the name) the canvas is compared with its baseline (the saved
 * version, or what it opened with); unsaved work is written to this browser's localStorage, and a canvas back at
 * its saved version drops its draft. Returns whether there is unsaved work (`dirty`).
 */
import { useEffect, useRef, useState } from "react";
import { removeDraft, writeDraft } from "../../model/drafts";
import { isDirty } from "../../model/editor-status";
import { toWorkflow, workflowKey, type SpecWorkflow } from "../../model/workflow";
import type { Graph } from "./use-graph";
import type { CanvasInfo, DraftState, NameState, SavedBaseline } from "./types";

export const DRAFT_DEBOUNCE_MS = 300;

export function useDraftAutosave({
  canvas,
  graph,
  name,
  baseline,
  opened,
}: {
  canvas: CanvasInfo;
  graph: Pick<Graph, "rev" | "posRev" | "nodesRef" | "edgesRef">;
  name: NameState;
  baseline: SavedBaseline;
  /** what the canvas opened with; `restoredDraftAt` when that was a local draft (unsaved from the start) */
  opened: { name: string; workflow: SpecWorkflow; restoredDraftAt?: string };
}): DraftState {
  const { draftKey, readOnly, origin } = canvas;
  const { rev, posRev, nodesRef, edgesRef } = graph;
  const nameRef = name.ref;
  const saved = baseline.ref;
  const [dirty, setDirty] = useState(() => !!opened.restoredDraftAt);
  const openedKey = useRef(workflowKey(opened.workflow));
  /** Set once the canvas hands over to another page (after creating the agent): drafts stop being written. */
  const leaving = useRef(false);
  const openedName = opened.name;
  const fromDraft = !!opened.restoredDraftAt;

  useEffect(() => {
    if (readOnly) return;
    const timer = setTimeout(() => {
      if (leaving.current) return;
      const workflow = toWorkflow(nodesRef.current, edgesRef.current);
      const key = workflowKey(workflow);
      const base = saved.current;
      const unsaved = isDirty({ key, name: nameRef.current }, base, {
        key: openedKey.current,
        name: openedName,
        fromDraft,
      });
      setDirty(unsaved);
      if (unsaved) writeDraft(draftKey, { name: nameRef.current, workflow, baseVersion: base?.version, origin });
      else if (base) removeDraft(draftKey);
    }, DRAFT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [rev, posRev, name.value, draftKey, readOnly, openedName, fromDraft, origin, nodesRef, edgesRef, nameRef, saved]);

  return { dirty, setDirty, leaving };
}
