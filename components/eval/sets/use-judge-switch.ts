"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { errorInfo } from "../types";
import type { JudgeSpec } from "./use-judge-choices";

/** Both judges' figures a switch was decided on (the server's `EvalJudgeSwitchFigures`). */
export type SwitchFigures = {
  current: { key: string; n: number; pairs: number; kappa: number | null; failRecall: number | null };
  candidate: { key: string; n: number; pairs: number; kappa: number | null; failRecall: number | null };
  enough: boolean;
  drops: Array<"kappa" | "failRecall">;
};

/**
 * Where a judge switch stands: `idle`; `job` while the comparison job judges the human-typed items (202, polled through
 * `eval.jobs.get`); `refused` with the server's JUDGE_AGREEMENT_DROP message and figures (from the PATCH's 409 or the
 * job's result); `failed` with the server's message; `switched` once the set's judge is the candidate.
 */
export type SwitchPhase =
  | { kind: "idle" }
  | { kind: "job"; jobId: string }
  | { kind: "refused"; message: string; figures: SwitchFigures | null }
  | { kind: "failed"; message: string }
  | { kind: "switched" };

const POLL_MS = 1000;

/** Switching a set's judge (`eval.sets.update` with `judge`, force and reason), the comparison job followed to its end. */
export function useJudgeSwitch(setId: string, onSwitched: () => void) {
  const trpc = useTRPC();
  const [phase, setPhase] = useState<SwitchPhase>({ kind: "idle" });
  const update = useMutation(trpc.eval.sets.update.mutationOptions());
  const jobId = phase.kind === "job" ? phase.jobId : "";
  const job = useQuery({
    ...trpc.eval.jobs.get.queryOptions({ id: jobId }),
    enabled: Boolean(jobId),
    refetchInterval: (q) => (q.state.data?.status === "running" ? POLL_MS : false),
  });

  const data = job.data;
  useEffect(() => {
    if (!data || data.id !== jobId || data.status === "running") return;
    if (data.status === "failed") setPhase({ kind: "failed", message: data.error?.message ?? "The comparison failed" });
    else if (data.result?.switched) {
      setPhase({ kind: "switched" });
      onSwitched();
    } else
      setPhase({
        kind: "refused",
        message: data.result?.refusal?.message ?? "The switch was refused",
        figures: (data.result?.refusal?.details[0] as SwitchFigures | undefined) ?? null,
      });
  }, [data, jobId, onSwitched]);

  const submit = async (judge: JudgeSpec, force?: { reason: string }) => {
    try {
      const answer = await update.mutateAsync({
        id: setId,
        body: { judge, ...(force ? { force: true, reason: force.reason } : {}) },
      });
      if ("job" in answer) setPhase({ kind: "job", jobId: answer.job.id });
      else {
        setPhase({ kind: "switched" });
        onSwitched();
      }
    } catch (e) {
      const info = errorInfo(e);
      if (info.code === "JUDGE_AGREEMENT_DROP")
        setPhase({ kind: "refused", message: info.message, figures: (info.details[0] as SwitchFigures) ?? null });
      else setPhase({ kind: "failed", message: info.message });
    }
  };

  // Stable and a no-op when idle: the dialog calls it from an effect while it is closed, and a new function (or a new
  // idle object) on every render made that effect re-render the set page forever, so a navigation away from the page
  // (a transition) never committed ("New version from this" stayed on the set page).
  const reset = useCallback(() => setPhase((p) => (p.kind === "idle" ? p : { kind: "idle" })), []);
  return {
    phase,
    job: data && data.id === jobId ? data : null,
    pending: update.isPending,
    submit,
    reset,
  };
}
