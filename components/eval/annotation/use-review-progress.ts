"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { useTRPC } from "@/lib/trpc";

/** After a burst of verdicts (P, P, P ...), one refresh once it has settled, not one per verdict. */
const SETTLE_MS = 250;

/**
 * A run's review progress as the server counts it (judged / total, human vs adopted, spot-check left by the one
 * spot-check rule, and what adopt would write now): never recounted in the browser. Refreshed after verdicts
 * (`refreshSoon`), read fresh before adoption is offered (`fresh`), polled while the run is still answering.
 */
export function useReviewProgress(runId: string, opts: { answering: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const options = useMemo(() => trpc.eval.items.progress.queryOptions({ id: runId }), [trpc, runId]);
  const q = useQuery({ ...options, refetchInterval: opts.answering ? 3000 : false });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const refreshSoon = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void qc.invalidateQueries({ queryKey: options.queryKey }), SETTLE_MS);
  }, [qc, options]);
  const fresh = useCallback(() => qc.fetchQuery({ ...options, staleTime: 0 }), [qc, options]);
  return { counts: q.data?.counts, refreshSoon, fresh };
}
