"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTRPC } from "@/lib/trpc";
import type { In } from "../types";

export type JudgeSpec = NonNullable<NonNullable<In["sets"]["update"]["body"]>["judge"]>;
export type JudgeChoice = { key: string; spec: JudgeSpec; label: string };

/** A judge's key, as the server writes it (`builtin`, `llm`, `agent:<agentId>@<version>`). */
export function judgeKeyOf(spec: JudgeSpec): string {
  return spec.type === "agent" ? `agent:${spec.agentId}@${spec.version}` : spec.type;
}

/** How many versions of each judge agent are offered, newest first (a judge is pinned to a version). */
const VERSIONS_OFFERED = 5;

/**
 * The judges a set may choose (`eval.sets.update` `judge`): the built-in point-coverage judge, the LLM judge, and each
 * judge agent's latest versions (`builder.agents.list` of kind judge). A role that may not list agents still gets the
 * first two.
 */
export function useJudgeChoices(enabled: boolean) {
  const trpc = useTRPC();
  const agents = useQuery({
    ...trpc.builder.agents.list.queryOptions({ kind: "judge", limit: 200 }),
    enabled,
    retry: false,
  });
  const choices = useMemo<JudgeChoice[]>(() => {
    const fixed: JudgeChoice[] = [
      { key: "builtin", spec: { type: "builtin" }, label: "Built-in point coverage (lexical)" },
      { key: "llm", spec: { type: "llm" }, label: "LLM judge (fixed rubric)" },
    ];
    const fromAgents = (agents.data?.items ?? []).flatMap((a) =>
      Array.from({ length: Math.min(VERSIONS_OFFERED, a.latestVersion) }, (_, i) => {
        const version = a.latestVersion - i;
        const spec: JudgeSpec = { type: "agent", agentId: a.id, version };
        return { key: judgeKeyOf(spec), spec, label: `${a.name} v${version}` };
      }),
    );
    return [...fixed, ...fromAgents];
  }, [agents.data]);
  return { choices, loading: agents.isLoading && enabled };
}
