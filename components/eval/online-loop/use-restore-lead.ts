"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { useMutationToast } from "../hooks/use-mutation-toast";

/** Restoring a dismissed lead: it is new again, and the online loop's answers are read again. */
export function useRestoreLead() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { ok, fail } = useMutationToast();
  return useMutation(
    trpc.eval.online.restore.mutationOptions({
      onSuccess: async () => {
        ok("The lead is new again");
        await qc.invalidateQueries({ queryKey: trpc.eval.online.pathKey() });
      },
      onError: fail("Not restored"),
    }),
  );
}
