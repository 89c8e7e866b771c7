"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { useConfirm } from "@/components/ui/dialog";
import { useToast } from "@/components/ui/toast";
import { useEvalUrl } from "../context";
import { useCreateAndStart } from "../runs/use-create-and-start";
import type { BoardCard } from "../types";
import { useMutationToast } from "../hooks/use-mutation-toast";

type VersionRef = Pick<BoardCard, "setId" | "setName" | "version">;
type DraftCounts = { setId: string; version: number; onlineSamples: number; unconfirmed: number };

/**
 * What the board does: confirm a candidate, write its expected points (the sample update service; drafts only),
 * freeze a pool version (asking first, with the number of samples nobody confirmed), and create + start a regression
 * run at pipeline_live. Every failure is a toast with the server's message; the board reloads after each success.
 */
export function useBoardActions(drafts: DraftCounts[] = []) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const [, go] = useEvalUrl();
  const reload = () => qc.invalidateQueries({ queryKey: trpc.eval.pathKey() });
  const { fail } = useMutationToast();

  const confirmSample = useMutation(
    trpc.eval.online.confirm.mutationOptions({
      onSuccess: async (s) => {
        toast({
          tone: "success",
          title: `${s.key} confirmed`,
          description: "Add its expected points, then freeze the version.",
        });
        await reload();
      },
      onError: fail("Not confirmed"),
    }),
  );
  const unconfirmSample = useMutation(
    trpc.eval.online.unconfirm.mutationOptions({ onSuccess: reload, onError: fail("Not changed") }),
  );
  const points = useMutation(
    trpc.eval.samples.update.mutationOptions({
      onSuccess: async (s) => {
        toast({ tone: "success", title: `Expected points of ${s.key} saved` });
        await reload();
      },
      onError: fail("Expected points not saved"),
    }),
  );
  const freezeMutation = useMutation(
    trpc.eval.versions.freeze.mutationOptions({
      onSuccess: async (v) => {
        toast({ tone: "success", title: `Version ${v.version} frozen`, description: "Run it from the Frozen column." });
        await reload();
      },
      onError: fail("Not frozen"),
    }),
  );
  const runs = useCreateAndStart();

  async function freeze(v: VersionRef) {
    // the server's exact count of the draft's online samples and of those nobody confirmed (the cards are capped)
    const draft = drafts.find((d) => d.setId === v.setId && d.version === v.version);
    const online = draft?.onlineSamples ?? 0;
    const unconfirmed = draft?.unconfirmed ?? 0;
    const ok = await confirm({
      title: `Freeze ${v.setName} v${v.version}?`,
      description: `${
        unconfirmed
          ? `${unconfirmed} of its ${online} online sample${online === 1 ? "" : "s"} ${unconfirmed === 1 ? "is" : "are"} not confirmed yet: freezing takes ${unconfirmed === 1 ? "it in as it is" : "them in as they are"}. `
          : ""
      }A frozen version is immutable: runs use it as it is, and later pool additions go into a new draft.`,
      confirmLabel: unconfirmed ? `Freeze with ${unconfirmed} unconfirmed` : "Freeze",
    });
    if (ok) freezeMutation.mutate({ id: v.setId, version: v.version });
  }

  async function runAtLive(v: VersionRef) {
    let setVersionId: string;
    try {
      setVersionId = (await qc.fetchQuery(trpc.eval.versions.get.queryOptions({ id: v.setId, version: v.version }))).id;
    } catch (e) {
      fail("No run created")(e);
      return;
    }
    const out = await runs.createAndStart({
      setVersionId,
      mode: "in_platform",
      tier: "pipeline_live",
      environment: "regression",
    });
    if (!out.ok && out.step === "create") {
      toast({ tone: "error", title: "No run created", description: out.message });
      return;
    }
    // created and started, or created and not answering (refused, or failed at once: the shared hook said so and
    // why): either way the run's page is next
    if (out.ok) toast({ tone: "success", title: `Regression run ${out.run.shortId} started` });
    await reload();
    go({ tab: "runs", run: out.run.shortId });
  }

  return {
    confirm: (c: BoardCard) => confirmSample.mutate({ id: c.sampleId }),
    unconfirm: (c: BoardCard) => unconfirmSample.mutate({ id: c.sampleId }),
    savePoints: (c: BoardCard, expectedPoints: string[], done: () => void) =>
      points.mutate({ id: c.sampleId, body: { expectedPoints } }, { onSuccess: done }),
    freeze,
    runAtLive,
    busy: {
      confirm: confirmSample.isPending || unconfirmSample.isPending,
      points: points.isPending,
      freeze: freezeMutation.isPending,
      run: runs.isPending,
    },
  };
}
