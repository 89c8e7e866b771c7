"use client";

/**
 * Versions: the history popover, a read-only preview of one version, and restoring it as a new version. Restoring
 * over unsaved changes asks first (an accessible confirmation dialog); the restored graph is one undoable step.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useReactFlow } from "@xyflow/react";
import { useCallback, useState } from "react";
import { useConfirm } from "@/components/ui/dialog";
import { useTRPC, useTRPCClient } from "@/lib/trpc";
import { removeDraft } from "../../model/drafts";
import { toFlow, type SpecWorkflow, type WfEdge, type WfNode } from "../../model/workflow";
import { fitViewOptions } from "../flow-canvas";
import type { CanvasToast } from "./use-canvas-toast";
import type { Graph } from "./use-graph";
import type { CanvasInfo, DraftState, NameState, SavedBaseline } from "./types";

export function useVersions({
  canvas,
  graph,
  name,
  baseline,
  draft,
  toast,
}: {
  canvas: CanvasInfo;
  graph: Pick<Graph, "apply">;
  name: NameState;
  baseline: SavedBaseline;
  draft: DraftState;
  toast: CanvasToast;
}) {
  const { agentId, draftKey } = canvas;
  const { apply } = graph;
  const { dirty, setDirty } = draft;
  const { markSaved } = baseline;
  const nameRef = name.ref;
  const client = useTRPCClient();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const rf = useReactFlow<WfNode, WfEdge>();
  const confirm = useConfirm();
  const [open, setOpen] = useState(false);
  const [preview, setPreview] = useState<number | null>(null);
  const [restoring, setRestoring] = useState(false);

  const toggle = useCallback(() => setOpen((o) => !o), []);
  const close = useCallback(() => setOpen(false), []);
  const openPreview = useCallback((version: number) => {
    setPreview(version);
    setOpen(false);
  }, []);
  const closePreview = useCallback(() => setPreview(null), []);

  const restore = useCallback(
    async (workflow: SpecWorkflow, version: number) => {
      if (!agentId) return;
      if (
        dirty &&
        !(await confirm({
          title: `Restore version ${version}?`,
          description: "Restoring replaces your unsaved changes on the canvas.",
          confirmLabel: "Restore",
          destructive: true,
        }))
      )
        return;
      setRestoring(true);
      try {
        const res = await client.builder.versions.create.mutate({
          id: agentId,
          body: { workflow, note: `Restored from version ${version}` },
        });
        apply(toFlow(workflow));
        markSaved(workflow, nameRef.current.trim(), res.version.version);
        setDirty(false);
        removeDraft(draftKey);
        setPreview(null);
        setOpen(false);
        toast("success", `Version ${version} restored as version ${res.version.version}.`);
        await queryClient.invalidateQueries({ queryKey: trpc.builder.versions.list.queryKey({ id: agentId }) });
        requestAnimationFrame(() => void rf.fitView(fitViewOptions));
      } catch (e) {
        toast("error", `Not restored: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        setRestoring(false);
      }
    },
    [agentId, dirty, confirm, client, apply, markSaved, nameRef, setDirty, draftKey, toast, queryClient, trpc, rf],
  );

  return { open, toggle, close, preview, openPreview, closePreview, restoring, restore };
}
