"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC, useTRPCClient } from "@/lib/trpc";
import { useToast } from "@/components/ui/toast";
import { errorInfo, type EvalItem } from "../types";
import type { FailInput } from "./fail-dialog";

export type VerdictRequest = { item: EvalItem; verdict: "pass" | "fail" } & Partial<FailInput>;
type Saved = Awaited<ReturnType<ReturnType<typeof useTRPCClient>["eval"]["items"]["verdict"]["mutate"]>>;

/** The item as the cache keeps it after a verdict: the server's answer (its new verdictVersion), the history until it is reloaded. */
export function withSaved(old: EvalItem, saved: Saved): EvalItem {
  const { changed: _changed, ...item } = saved;
  const byLabel = item.verdict && item.verdict.byId === old.verdict?.byId ? old.verdict.byLabel : "you";
  return { ...old, ...item, verdict: item.verdict ? { ...item.verdict, byLabel } : null };
}

/**
 * A person's verdict on the item they read. It always carries the verdictVersion of that item as shown (the detail
 * must be loaded to judge), so a verdict written by someone else meanwhile is refused (409 VERDICT_CONFLICT) instead of
 * overwritten; the item is then reloaded (no verdict can be given until it is shown again). The server's answer goes
 * into the cache, so going back (K) and changing one's own verdict sends the new version, not a stale one.
 */
export function useVerdict(
  runId: string,
  on: { saved: (saved: Saved, v: VerdictRequest) => Promise<void> | void; conflict: () => void },
) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ item, verdict, basis, attribution, classification }: VerdictRequest) =>
      client.eval.items.verdict.mutate({
        id: runId,
        itemId: item.id,
        body: { verdict, basis, attribution, classification, expectedVersion: item.verdictVersion },
      }),
    onSuccess: (saved, v) => {
      const key = trpc.eval.items.get.queryKey({ id: runId, itemId: saved.id });
      qc.setQueryData(key, (old) => (old ? withSaved(old, saved) : old));
      // the history is reloaded when the item is shown again, not now: the view is moving on, and a refetch of the
      // item being left would only compete with the next verdict on the server
      void qc.invalidateQueries({ queryKey: key, refetchType: "none" });
      return on.saved(saved, v); // pending until the view has moved on: no second verdict on the same item meanwhile
    },
    onError: (e, v) => {
      const info = errorInfo(e);
      if (info.code === "VERDICT_CONFLICT") {
        const now = (info.details[0] as { verdict?: { verdict?: string } | null } | undefined)?.verdict?.verdict;
        toast({
          tone: "error",
          title: "Someone else judged this item meanwhile",
          description: `Its verdict is now ${now ?? "none"}. The item is reloaded: read it and decide again.`,
        });
        void qc.resetQueries({ queryKey: trpc.eval.items.get.queryKey({ id: runId, itemId: v.item.id }) });
        on.conflict();
        return;
      }
      toast({ tone: "error", title: "The verdict was not saved", description: info.message });
    },
  });
}
