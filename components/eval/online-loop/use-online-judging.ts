"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { useMutationToast } from "../hooks/use-mutation-toast";

/**
 * The agent's online judging rule (`eval.online.judging.get`) with its last 7 days of judgments, the judge agents a
 * rule may name (`builder.agents.list` of kind judge, each at its latest version), and saving the rule (the server
 * refuses the built-in judge and a rate outside 0..1; the form never offers them).
 */
export function useOnlineJudging(agentId: string) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { ok, fail } = useMutationToast();
  const judging = useQuery(trpc.eval.online.judging.get.queryOptions({ agentId }));
  const judges = useQuery(trpc.builder.agents.list.queryOptions({ kind: "judge", limit: 100 }));
  const save = useMutation(
    trpc.eval.online.judging.put.mutationOptions({
      onSuccess: async () => {
        ok("Online judging saved", "It applies to online answers from now on.");
        await qc.invalidateQueries({ queryKey: trpc.eval.online.pathKey() });
      },
      onError: fail("Online judging not saved"),
    }),
  );
  return {
    judging,
    judgeAgents: (judges.data?.items ?? []).filter((a) => a.latestVersion > 0),
    save,
  };
}
