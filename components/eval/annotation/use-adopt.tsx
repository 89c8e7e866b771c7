"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { useConfirm } from "@/components/ui/dialog";
import { useToast } from "@/components/ui/toast";
import { useEvalUrl } from "../context";
import { useMutationToast } from "../hooks/use-mutation-toast";
import type { useQueue } from "./use-queue";
import type { useReviewProgress } from "./use-review-progress";

/**
 * "Adopt machine suggestions" of a run: the count a person confirms is the server's, asked afresh (others may have
 * judged since the page counted); adopted, the details are read again (each adopted item has a new verdict version)
 * and the Spot-check list opens on its first item left. `checking` while the fresh count is on its way.
 */
export function useAdopt(
  runId: string,
  {
    progress,
    queue,
  }: { progress: ReturnType<typeof useReviewProgress>; queue: Pick<ReturnType<typeof useQueue>, "refresh"> },
) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const notify = useMutationToast();
  const confirm = useConfirm();
  const [, go] = useEvalUrl();
  const [checking, setChecking] = useState(false);
  const adopt = useMutation(
    trpc.eval.runs.adopt.mutationOptions({
      onSuccess: async (r) => {
        toast({
          tone: "success",
          title: `${r.adopted} suggestion${r.adopted === 1 ? "" : "s"} adopted as verdicts`,
          description: `${r.spotCheck.length} items to spot-check are listed now.`,
        });
        // every adopted item has a new verdict version: reload the details rather than judge on a stale one
        await qc.resetQueries({ queryKey: trpc.eval.items.get.pathKey() });
        await queue.refresh();
        void qc.invalidateQueries({ queryKey: trpc.eval.pathKey() });
        const firstLeft = r.spotCheck.find((i) => !i.verdict || i.verdict.source === "adopted") ?? r.spotCheck[0];
        go({ spot: "1", verdict: undefined, suggestion: undefined, item: firstLeft?.id }, { replace: true });
      },
      onError: notify.fail("Nothing adopted"),
    }),
  );
  const ask = async () => {
    setChecking(true);
    // the count a person confirms is the server's, now: others may have judged since the page counted
    const fresh = await progress.fresh().catch((e: unknown) => {
      notify.fail("Nothing adopted")(e);
      return null;
    });
    setChecking(false);
    if (!fresh) return;
    const n = fresh.counts.adoptable;
    const unknown = fresh.counts.unknownOpen;
    if (!n) {
      toast({
        tone: "info",
        title: "Nothing to adopt",
        description: "No item without a verdict has a pass or fail suggestion any more.",
      });
      return;
    }
    const ok = await confirm({
      title: "Adopt all machine suggestions?",
      description: (
        <>
          <strong>{n}</strong> pass or fail suggestion{n === 1 ? "" : "s"} become{n === 1 ? "s" : ""} verdicts marked
          “adopted” (they count for the gate like any verdict).{" "}
          {unknown ? (
            <>
              <strong>{unknown}</strong> unknown suggestion{unknown === 1 ? "" : "s"} do not: a person decides those.{" "}
            </>
          ) : null}
          Items that already have a verdict are left alone. Then the spot-check list opens: fails, unknowns, flagged
          items, and the audit: a random share of the adopted passes (the set&apos;s audit rate, at least 3) for a
          person to check.
        </>
      ),
      confirmLabel: `Adopt ${n}`,
    });
    if (ok) adopt.mutate({ id: runId });
  };

  return { ask, checking, isPending: adopt.isPending };
}
