"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";

/**
 * The server's evaluation vocabulary (`eval.meta`: tiers, attributions, Bad Case and lead statuses, signals, the
 * comparison's outcomes, the rule vocabulary), read once per page and kept: it changes only with a deployment.
 * `enabled: false` defers the request (a dialog that is not open).
 */
export function useVocabulary({ enabled = true }: { enabled?: boolean } = {}) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.eval.meta.queryOptions(), staleTime: Infinity, enabled });
}
