"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";

/**
 * After a set is created, renamed or deleted: the sets' queries, and the agent selector's list, which puts agents
 * with sets first, are refetched.
 */
export function useSetsChanged(): () => Promise<void> {
  const trpc = useTRPC();
  const qc = useQueryClient();
  return async () => {
    await Promise.all([
      qc.invalidateQueries({ queryKey: trpc.eval.sets.pathKey() }),
      qc.invalidateQueries(trpc.builder.agents.list.queryFilter()),
    ]);
  };
}
