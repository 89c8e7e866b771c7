"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { useConfirm } from "@/components/ui/dialog";
import { useToast } from "@/components/ui/toast";
import { useEvalUrl } from "../context";
import { useMutationToast } from "../hooks/use-mutation-toast";

/** The version lifecycle actions shared by the set page and the version page: new version from, freeze, delete a draft. */
export function useVersionActions(setId: string) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const [, go] = useEvalUrl();
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.eval.pathKey() });
  const { fail } = useMutationToast();

  const create = useMutation(
    trpc.eval.versions.create.mutationOptions({
      onSuccess: async (v) => {
        toast({
          tone: "success",
          title: `Version ${v.version} created as a draft`,
          description: `${v.sampleCount} samples copied; edit them, then freeze.`,
        });
        await refresh();
        go({ tab: "sets", set: setId, v: v.version });
      },
      onError: fail("No new version"),
    }),
  );
  const freezeM = useMutation(
    trpc.eval.versions.freeze.mutationOptions({
      onSuccess: async (v) => {
        toast({
          tone: "success",
          title: `Version ${v.version} is frozen`,
          description: "Runs can now be created from it.",
        });
        await refresh();
      },
      onError: fail("The version was not frozen"),
    }),
  );
  const del = useMutation(
    trpc.eval.versions.delete.mutationOptions({
      onSuccess: async () => {
        toast({ tone: "success", title: "Draft deleted" });
        await refresh();
        go({ tab: "sets", set: setId });
      },
      onError: fail("The draft was not deleted"),
    }),
  );

  return {
    busy: create.isPending || freezeM.isPending || del.isPending,
    newVersion: (from: number) => create.mutate({ id: setId, body: { from, note: `From version ${from}` } }),
    freeze: async (v: { version: number; sampleCount: number }) => {
      const ok = await confirm({
        title: `Freeze version ${v.version}?`,
        description: (
          <>
            Freezing makes its {v.sampleCount} questions, their expected points and assertions{" "}
            <strong>immutable</strong>: nobody can change them again, and the database refuses it too. Runs can only be
            created from frozen versions, so results stay comparable. To change a question later, create a new version
            from this one.
          </>
        ),
        confirmLabel: "Freeze version",
      });
      if (ok) freezeM.mutate({ id: setId, version: v.version });
    },
    remove: async (v: { version: number }) => {
      if (
        await confirm({
          title: `Delete draft version ${v.version}?`,
          description: "Its samples are deleted. Frozen versions are always kept.",
          confirmLabel: "Delete draft",
          destructive: true,
        })
      )
        del.mutate({ id: setId, version: v.version });
    },
  };
}
