"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";

/** The agent's versions (`builder.versions.list`), for choosing a version as the shadow's candidate. */
export function useAgentVersions(agentId: string) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.builder.versions.list.queryOptions({ id: agentId }), select: (d) => d.items });
}
