"use client";

/**
 * Saving. The baseline is the last saved version (what "unsaved changes" is measured against). Save creates the
 * agent on its first valid save (`builder.agents.create`, then the canvas moves to the agent's page) and a new
 * immutable version after that (`builder.versions.create`, renaming the agent first when its name changed).
 * `blockedBy` says why Save cannot run now.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useCallback, useRef, useState } from "react";
import { useTRPC, useTRPCClient } from "@/lib/trpc";
import { removeDraft } from "../../model/drafts";
import { saveBlockReason, type Baseline } from "../../model/editor-status";
import { workflowKey, type SpecWorkflow } from "../../model/workflow";
import type { CanvasToast } from "./use-canvas-toast";
import type { Graph } from "./use-graph";
import type { CanvasInfo, DraftState, NameState, SavedBaseline } from "./types";

export function useBaseline(saved: { name: string; workflow: SpecWorkflow; version: number } | null): SavedBaseline {
  const ref = useRef<Baseline | null>(
    saved ? { json: workflowKey(saved.workflow), name: saved.name, version: saved.version } : null,
  );
  const [savedVersion, setSavedVersion] = useState<number | null>(saved?.version ?? null);
  const markSaved = useCallback((workflow: SpecWorkflow, name: string, version: number) => {
    ref.current = { json: workflowKey(workflow), name, version };
    setSavedVersion(version);
  }, []);
  return { ref, savedVersion, markSaved };
}

export function useSave({
  canvas,
  graph,
  name,
  baseline,
  draft,
  validation,
  toast,
  onSaved,
}: {
  canvas: CanvasInfo;
  graph: Pick<Graph, "getWorkflow" | "bumpRev" | "seal">;
  name: NameState;
  baseline: SavedBaseline;
  draft: DraftState;
  validation: { error: string | null; validating: boolean; errors: number };
  toast: CanvasToast;
  onSaved: () => void;
}) {
  const { agentId, draftKey, readOnly, origin, kind } = canvas;
  const { getWorkflow, bumpRev, seal } = graph;
  const { dirty, setDirty, leaving } = draft;
  const { ref: saved, markSaved } = baseline;
  const nameRef = name.ref;
  const client = useTRPCClient();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [saving, setSaving] = useState(false);
  const blockedBy = saveBlockReason({
    readOnly,
    name: name.value,
    validationError: validation.error,
    validating: validation.validating,
    errors: validation.errors,
    saved: !!agentId,
    dirty,
  });

  const save = useCallback(async () => {
    if (blockedBy || saving) return;
    const workflow = getWorkflow();
    const trimmed = nameRef.current.trim();
    setSaving(true);
    try {
      if (!agentId) {
        const res = await client.builder.agents.create.mutate({
          name: trimmed,
          kind,
          workflow,
          note: origin ? `Created from ${origin}` : undefined,
        });
        leaving.current = true;
        removeDraft(draftKey);
        setDirty(false);
        await queryClient.invalidateQueries({ queryKey: trpc.builder.agents.list.queryKey() });
        router.replace(`/builder/${res.agent.id}?created=1`);
        return;
      }
      if (saved.current && trimmed !== saved.current.name)
        await client.builder.agents.update.mutate({ id: agentId, body: { name: trimmed } });
      const res = await client.builder.versions.create.mutate({ id: agentId, body: { workflow } });
      markSaved(workflow, trimmed, res.version.version);
      setDirty(false);
      onSaved();
      removeDraft(draftKey);
      seal();
      toast(
        "success",
        `Saved version ${res.version.version}${res.warnings.length ? ` with ${res.warnings.length} warning${res.warnings.length === 1 ? "" : "s"}` : ""}.`,
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.builder.versions.list.queryKey({ id: agentId }) }),
        queryClient.invalidateQueries({ queryKey: trpc.builder.agents.list.queryKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.builder.agents.get.queryKey({ id: agentId }) }),
      ]);
    } catch (e) {
      toast("error", `Not saved: ${e instanceof Error ? e.message : String(e)}`);
      bumpRev();
    } finally {
      setSaving(false);
    }
  }, [
    blockedBy,
    saving,
    getWorkflow,
    nameRef,
    agentId,
    client,
    origin,
    kind,
    leaving,
    draftKey,
    setDirty,
    queryClient,
    trpc,
    router,
    saved,
    markSaved,
    onSaved,
    seal,
    toast,
    bumpRev,
  ]);

  const label = agentId ? (saving ? "Saving…" : "Save version") : saving ? "Creating…" : "Create agent";
  return { save, saving, blockedBy, label };
}
