"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";

/**
 * A judge's calibration on a set (`eval.sets.calibration`): its suggestions against people's typed verdicts. `judge` is
 * a judge key (`builtin`, `llm`, `agent:<agentId>@<version>`); without one, the set's current judge.
 */
export function useJudgeCalibration(setId: string, judge?: string | null, enabled = true) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.eval.sets.calibration.queryOptions({ id: setId, query: judge ? { judge } : {} }),
    enabled,
  });
}
