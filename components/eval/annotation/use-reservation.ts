"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc";

/** Renew well inside the server's 10 minutes (RESERVATION_MS), so an open item stays reserved. */
const RENEW_MS = 4 * 60 * 1000;

export type ReservationState = { itemId: string; reserved: boolean; until: string | null; reservedByOthers: number };

/**
 * The open item is reserved for the person while it is open (issue 23): reserved when it opens, renewed every few
 * minutes, released when the view leaves it (another item, another view of the app; a closed tab's reservation
 * lapses after its 10 minutes). The server keeps the rules
 * (server/eval/runs/reservations.ts); a reservation is a courtesy, so a failure here never blocks judging.
 */
export function useReservation(runId: string, itemId: string | undefined, enabled: boolean) {
  const trpc = useTRPC();
  const [state, setState] = useState<ReservationState | null>(null);
  const reserve = useMutation(trpc.eval.items.reserve.mutationOptions({ onSuccess: setState }));
  const release = useMutation(trpc.eval.items.release.mutationOptions());
  // the mutations' functions change identity per render: keep the latest in refs so the effect runs per item only
  const calls = useRef({ reserve: reserve.mutate, release: release.mutate });
  calls.current = { reserve: reserve.mutate, release: release.mutate };
  useEffect(() => {
    if (!enabled || !itemId) return;
    const input = { id: runId, itemId };
    calls.current.reserve(input);
    const timer = setInterval(() => calls.current.reserve(input), RENEW_MS);
    return () => {
      clearInterval(timer);
      setState(null);
      calls.current.release(input);
    };
  }, [runId, itemId, enabled]);
  return state && state.itemId === itemId ? state : null;
}
