"use client";

import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { useMutationToast } from "../hooks/use-mutation-toast";

/**
 * Adding, saving and removing a sample of a draft: each says so, reads the evaluation answers again and closes the
 * editor; a refused add or save goes to `onError` (the form shows it by field), a refused removal to a toast.
 */
export function useSampleMutations(onClose: () => void, onError: (e: unknown) => void) {
  const trpc = useTRPC();
  const { ok, fail, refresh } = useMutationToast();
  const add = useMutation(
    trpc.eval.samples.add.mutationOptions({
      onSuccess: async (s) => (ok(`Sample ${s.key} added`), await refresh(), onClose()),
      onError,
    }),
  );
  const update = useMutation(
    trpc.eval.samples.update.mutationOptions({
      onSuccess: async (s) => (ok(`Sample ${s.key} saved`), await refresh(), onClose()),
      onError,
    }),
  );
  const del = useMutation(
    trpc.eval.samples.delete.mutationOptions({
      onSuccess: async () => (ok("Sample removed"), await refresh(), onClose()),
      onError: fail("Not removed"),
    }),
  );
  return { add, update, del };
}
