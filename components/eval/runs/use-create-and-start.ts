"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC, useTRPCClient } from "@/lib/trpc";
import { useToast } from "@/components/ui/toast";
import { errorInfo, type In } from "../types";

type CreatedRun = { id: string; shortId: string };

/** What came of "create and start": nothing created, created but not answering, or created (and started when asked). */
export type CreateAndStartOutcome =
  | { ok: false; step: "create"; message: string }
  | { ok: false; step: "start"; run: CreatedRun; message: string }
  | { ok: true; run: CreatedRun; started: boolean };

/**
 * Creates a run and (unless `start` is false) starts it: the one way the create-run dialog, the online loop's board and
 * a Bad Case's "Re-run the same batch" (`rerunAndStart`: the run's re-run, created the same way) do it. A start can fail after the run was created in two ways, and both leave the run not answering: the
 * server refuses it (an error), or the run fails at once (status `failed`: its snapshot cannot run). Either way the run
 * exists, so an error toast names it ("Run R-… was created but did not start") with the reason, and the outcome
 * carries the run so the caller leads to it. A creation that fails is returned for the caller to show where it fits.
 */
export function useCreateAndStart() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const toast = useToast();
  const mutation = useMutation({
    mutationFn: async ({
      input,
      start,
    }: {
      input: { create: In["runs"]["create"] } | { rerunOf: string };
      start: boolean;
    }): Promise<CreateAndStartOutcome> => {
      let run: CreatedRun;
      try {
        run =
          "rerunOf" in input
            ? await client.eval.runs.rerun.mutate({ id: input.rerunOf, body: {} })
            : await client.eval.runs.create.mutate(input.create);
      } catch (e) {
        return { ok: false, step: "create", message: errorInfo(e).message };
      }
      const startError = start
        ? await client.eval.runs.start.mutate({ id: run.id }).then(
            (r) => (r.status === "failed" ? (r.error ?? "The run failed as it started.") : null),
            (e: unknown) => errorInfo(e).message,
          )
        : null;
      await qc.invalidateQueries({ queryKey: trpc.eval.runs.pathKey() });
      if (startError !== null) {
        const reason = /[.!?]$/.test(startError) ? startError : `${startError}.`;
        toast({
          tone: "error",
          title: `Run ${run.shortId} was created but did not start`,
          description: `${reason} Start it from its page once the cause is fixed.`,
        });
        return { ok: false, step: "start", run, message: startError };
      }
      return { ok: true, run, started: start };
    },
  });
  return {
    /** never rejects: every failure is in the outcome */
    createAndStart: (input: In["runs"]["create"], { start = true }: { start?: boolean } = {}) =>
      mutation.mutateAsync({ input: { create: input }, start }),
    /** "re-run the same batch" of a run (its id or Run ID), started; never rejects either */
    rerunAndStart: (runId: string) => mutation.mutateAsync({ input: { rerunOf: runId }, start: true }),
    isPending: mutation.isPending,
  };
}
